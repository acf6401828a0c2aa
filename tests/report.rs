//! Reports (issue 6): every entry has its plots, every inline SVG is well formed, pages
//! reference nothing outside themselves; negative controls for each check.
//!
//! `SADDLEFW_WRITE_SAMPLE=1 cargo test --release report::write_sample` writes the synthetic
//! pages to `reports/sample/` and a synthetic illustration to `reports/sample/sample-rate-plot.svg`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use saddlefw::experiments::table3::{column, iteration_claim, paper_iterations};
use saddlefw::files::write_atomic;
use saddlefw::report::plot::{self, Axis, Scale};
use saddlefw::report::*;
use saddlefw::Constants;

/// Log-spaced checkpoints 1 ..= t_max.
fn checkpoints(t_max: f64, n: usize) -> Vec<f64> {
    let mut t: Vec<f64> = (0..n)
        .map(|i| (t_max.ln() * i as f64 / (n - 1) as f64).exp().round())
        .collect();
    t.dedup();
    t
}

#[allow(clippy::too_many_arguments)]
/// A synthetic entry: the quantity decays like c_s T^-p_obs (times noise) for each seed;
/// `floor` makes it drop to the floating-point floor and then to exact zeros.
fn synthetic_entry(
    id: &str,
    alg: &str,
    setting: &str,
    quantity: &str,
    p: f64,
    p_obs: f64,
    verdict: Verdict,
    floor: bool,
    seed: u64,
) -> RateEntry {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ts = checkpoints(1e4, 25);
    let n_seeds = 5;
    let seeds: Vec<Series> = (0..n_seeds)
        .map(|s| {
            let c: f64 = rng.gen_range(0.5..2.0);
            let pts = ts
                .iter()
                .map(|&t| {
                    let mut q =
                        c * (t + 1.0).powf(-p_obs) * (1.0 + 0.15 * rng.gen_range(-1.0..1.0));
                    if floor && t > 300.0 {
                        q = if t > 2000.0 { 0.0 } else { 1e-16 };
                    }
                    (t, q)
                })
                .collect();
            Series::new(format!("seed {s}"), pts)
        })
        .collect();
    let median_pts: Vec<(f64, f64)> = ts
        .iter()
        .enumerate()
        .map(|(k, &t)| {
            let mut v: Vec<f64> = seeds.iter().map(|s| s.points[k].1).collect();
            v.sort_by(f64::total_cmp);
            (t, v[v.len() / 2])
        })
        .collect();
    let median = Series::new("median", median_pts.clone()).styled(SeriesStyle::Bold);
    let slopes = |pts: &[(f64, f64)]| -> Vec<(f64, f64)> {
        pts.windows(2)
            .filter(|w| w[0].1 > 0.0 && w[1].1 > 0.0 && w[1].0 > w[0].0)
            .map(|w| {
                (
                    (w[0].0 * w[1].0).sqrt(),
                    (w[1].1.ln() - w[0].1.ln()) / (w[1].0.ln() - w[0].0.ln()),
                )
            })
            .collect()
    };
    let mut local_slopes: Vec<Series> = seeds
        .iter()
        .map(|s| Series::new(s.label.clone(), slopes(&s.points)).styled(SeriesStyle::Thin))
        .collect();
    local_slopes.push(Series::new("median", slopes(&median_pts)).styled(SeriesStyle::Bold));
    let (window, fit, p_hat, ci) = if floor {
        (None, None, None, None)
    } else {
        let (a, b) = (ts[ts.len() / 2], ts[ts.len() - 1]);
        let q0 = median_pts[ts.len() / 2].1;
        let fit = Fit {
            slope: -p_obs,
            intercept: q0.ln() + p_obs * a.ln(),
            t_start: a,
            t_end: b,
        };
        (
            Some((a, b)),
            Some(fit),
            Some(p_obs),
            Some((p_obs - 0.04, p_obs + 0.03)),
        )
    };
    let envelope = (!floor).then(|| {
        Series::new(
            "explicit envelope bound(T)",
            ts.iter().map(|&t| (t, 6.0 * (t + 1.0).powf(-p))).collect(),
        )
    });
    RateEntry {
        id: id.to_string(),
        case: format!(
            "{}/{}",
            alg.to_ascii_lowercase(),
            setting.to_ascii_lowercase()
        ),
        algorithm: alg.to_string(),
        setting: setting.to_string(),
        quantity_text: quantity.to_string(),
        p,
        log_factor: false,
        p_hat,
        ci,
        window,
        verdict,
        envelope_ratio: envelope.as_ref().map(|_| 0.31),
        baseline_p_hat: p_hat.map(|x| x + 0.01),
        label: "theorem:fw-fw-unified-nc-c-convergence (i)".to_string(),
        notes: vec!["synthetic data for a rendering test".to_string()],
        seeds,
        median: Some(median),
        fit,
        envelope,
        local_slopes,
        instances: vec![InstanceInfo {
            family: "quadratic".to_string(),
            dim_x: 20,
            dim_y: 10,
            seed: Some(seed),
            params: Some(format!("quadratic/nc-c:dx=20,dy=10,seed={seed}")),
            constants: Constants {
                lxx: 3.2,
                lyx: 1.7,
                lyy: 0.0,
                mu: 0.0,
                alpha: None,
                dx: 2.0,
                dy: 1.414,
            },
            assumptions: vec!["A1".to_string()],
        }],
        tightness: None,
        answers: Some(vec![
            ("theorem conformance".to_string(), "pass".to_string()),
            ("rate evidence".to_string(), format!("{}", verdict.name())),
        ]),
        reproduce: Some(format!(
            "saddlefw run --problem quadratic/nc-c:dx=20,dy=10,seed={seed}"
        )),
        time_s: Some(1.25),
    }
}

fn synthetic_entries() -> Vec<RateEntry> {
    let mut e = vec![
        synthetic_entry(
            "lmo-lmo-nc-c-gx",
            "LMO-LMO",
            "NC-C",
            "mean of G_X^LMO over t = 0..T",
            1.0 / 6.0,
            0.94,
            Verdict::Pass,
            false,
            1,
        ),
        synthetic_entry(
            "lmo-po-nc-c-gy",
            "LMO-PO",
            "NC-C",
            "mean of G_Y over t = 1..T",
            0.25,
            0.12,
            Verdict::Fail,
            false,
            2,
        ),
        synthetic_entry(
            "po-lmo-nc-sc-gy",
            "PO-LMO",
            "NC-SC",
            "mean of G_Y over t = 0..T",
            0.5,
            3.2,
            Verdict::Floor,
            true,
            3,
        ),
        synthetic_entry(
            "lmo-lmo-c-sc-gy",
            "LMO-LMO",
            "C-SC",
            "G_Y at (x_T, y_T)",
            2.0 / 3.0,
            0.55,
            Verdict::Disputed,
            false,
            4,
        ),
    ];
    e[3].log_factor = false;
    e[3].notes
        .push("D1: the H_t lemmas carry log(T+2) at a = 1".to_string());
    let hard = synthetic_entry(
        "hard",
        "LMO-LMO",
        "NC-C",
        "",
        1.0 / 6.0,
        0.21,
        Verdict::Pass,
        false,
        9,
    );
    e[0].tightness = Some(Tightness {
        family: "hard/zigzag".to_string(),
        params: "face_dim=8,seed=3".to_string(),
        p_hat: 0.21,
        ci: Some((0.18, 0.24)),
        note: tightness_note(1.0 / 6.0, 0.21, Some((0.18, 0.24)), 0.1),
        fixture: Some("fixtures/hard/lmo-lmo-nc-c-gx.json".to_string()),
        series: hard.seeds,
        local_slopes: hard.local_slopes,
    });
    e[1].tightness = Some(Tightness {
        family: "hard/ill-conditioned".to_string(),
        params: "kappa=1e3".to_string(),
        p_hat: 0.31,
        ci: Some((0.27, 0.35)),
        note: tightness_note(0.25, 0.31, Some((0.27, 0.35)), 0.1),
        fixture: None,
        series: vec![],
        local_slopes: vec![],
    });
    e
}

fn synthetic_invariants() -> Vec<InvariantRow> {
    vec![
        InvariantRow {
            name: "calculus-ii".to_string(),
            label: "lemma:calculus (ii)".to_string(),
            gating: true,
            cases: 4000,
            violations: 0,
            min_slack: Some(2.3e-9),
            worst: Some("quadratic seed 12, t = 48".to_string()),
        },
        InvariantRow {
            name: "massive-sum-printed".to_string(),
            label: "lemma:massive-sum (printed 4^b)".to_string(),
            gating: false,
            cases: 200,
            violations: 14,
            min_slack: Some(-0.37),
            worst: Some("T = 2, a = 3/4, b = 1/4".to_string()),
        },
        InvariantRow {
            name: "repeat-saddle".to_string(),
            label: "lemma:repeat-saddle".to_string(),
            gating: true,
            cases: 0,
            violations: 0,
            min_slack: None,
            worst: None,
        },
    ]
}

fn synthetic_errata() -> Vec<Erratum> {
    vec![Erratum {
        label: "lemma:massive-sum".to_string(),
        printed: "sum <= 4^b ...".to_string(),
        corrected: "sum <= 8^b ...".to_string(),
        outcome: "erratum confirmed numerically (T = 2, a = 0.75, b = 0.25, lhs 1.41 > rhs 1.04)"
            .to_string(),
        confirmed: Some(true),
    }]
}

fn meta() -> Meta {
    Meta {
        version: "0.1.0".to_string(),
        git_commit: Some("abc123".to_string()),
        seeds: vec![1, 2, 3, 4, 5],
        tier: Some("quick".to_string()),
        machine: "synthetic test machine".to_string(),
        date: format_utc(1_700_000_000),
        command: Some("cargo test (synthetic data)".to_string()),
        interrupted: None,
    }
}

fn synthetic_runs() -> Vec<RunSummary> {
    let algs = [
        ("LMO-PO", None, 0.9),
        ("LMO-LMO", None, 0.6),
        ("PO-LMO", None, 0.25),
        (
            "SP-FW",
            Some("VERIFIED (authors' code, lesteve/SPFW)"),
            0.35,
        ),
        (
            "AGP",
            Some("RECONSTRUCTED (Xu et al. 2023, Algorithm 1)"),
            0.2,
        ),
        ("R-PDCG", Some("RECONSTRUCTED (Boroun et al. 2023)"), 0.3),
        ("CG-RPGA", Some("GUESSED step sizes"), 0.3),
    ];
    algs.iter()
        .enumerate()
        .map(|(i, (name, prov, rate))| {
            let n = 40;
            let by_iteration: Vec<(f64, f64)> = (0..n)
                .map(|k| {
                    let t = (10f64.powf(4.0 * k as f64 / (n - 1) as f64)).round() - 1.0;
                    (
                        t,
                        2.0 * (t + 1.0).powf(-rate)
                            + 1e-3 * (i as f64 % 3.0) * f64::from(*rate < 0.4),
                    )
                })
                .collect();
            let by_time = by_iteration
                .iter()
                .map(|&(t, g)| (t * 1e-3 * (1.0 + 0.8 * (i % 3) as f64), g))
                .collect();
            RunSummary {
                algorithm: name.to_string(),
                provenance: prov.map(str::to_string),
                problem: Some("dl".to_string()),
                measure: Some(if name.starts_with("PO") || *name == "AGP" {
                    "G_X^PO + G_Y".to_string()
                } else {
                    "G_X^LMO + G_Y".to_string()
                }),
                status: "time-limit".to_string(),
                iterations: 10_000 / (1 + (i as u64 % 3)),
                wall_time_s: Some(10.0),
                cpu_share: None,
                by_iteration: Some(Series::new(*name, by_iteration)),
                by_time: Some(Series::new(*name, by_time)),
            }
        })
        .collect()
}

/// Every inline SVG of a page, each checked for well-formedness.
fn assert_svgs_well_formed(html: &str) -> usize {
    let svgs = inline_svgs(html);
    for (i, s) in svgs.iter().enumerate() {
        svg_well_formed(s).unwrap_or_else(|e| panic!("inline SVG {i} is malformed: {e}"));
    }
    svgs.len()
}

/// The HTML of one entry's `<article>`.
fn article<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("id=\"{id}\"><h3>"))
        .unwrap_or_else(|| panic!("no section for {id}"));
    let end = html[start..]
        .find("</article>")
        .expect("article not closed")
        + start;
    &html[start..end]
}

#[test]
fn verify_page_has_every_entry_plotted_and_is_self_contained() {
    let entries = synthetic_entries();
    let html = verify_page(
        &meta(),
        &entries,
        &synthetic_invariants(),
        &synthetic_errata(),
    );
    self_contained(&html).expect("page references something outside itself");
    let n_svgs = assert_svgs_well_formed(&html);
    // Two plots per entry, two more for the tightness instance with series, one tightness scatter.
    assert_eq!(n_svgs, 2 * entries.len() + 2 + 1);
    for e in &entries {
        let id = format!("entry-{}", e.id);
        let a = article(&html, &id);
        assert!(inline_svgs(a).len() >= 2, "{id} lacks its plots");
        assert!(html.contains(&format!("href=\"#{id}\"")), "no link to {id}");
        assert!(
            a.contains("<table class=\"instances\">"),
            "{id} lacks the instance table"
        );
        // the three questions and the reproduce command are in the entry's facts
        for (q, answer) in e.answers.iter().flatten() {
            assert!(
                a.contains(&format!("<dt>{q}</dt><dd>{answer}</dd>")),
                "{id}: {q}"
            );
        }
        let cmd = e.reproduce.as_deref().unwrap();
        assert!(
            a.contains(&format!("<dt>reproduce</dt><dd><code>{cmd}</code></dd>")),
            "{id}"
        );
    }
    // Summary: exactly one row per entry, with the entry's verdict class, in order.
    let tbody_start = html.find("<table class=\"summary\">").unwrap();
    let tbody = &html[tbody_start..tbody_start + html[tbody_start..].find("</table>").unwrap()];
    let rows: Vec<&str> = tbody.split("<tr class=\"row-").skip(1).collect();
    assert_eq!(rows.len(), entries.len());
    for (row, e) in rows.iter().zip(&entries) {
        assert!(
            row.starts_with(e.verdict.name()),
            "row {row:.40} vs {:?}",
            e.verdict
        );
        assert!(row.contains(&format!(
            "<td class=\"verdict-cell\"><span class=\"verdict verdict-{}\">",
            e.verdict.name()
        )));
        assert!(row.contains(&format!("data-entry=\"entry-{}\"", e.id)));
    }
    for needle in [
        "id=\"how-to-read\"",
        "id=\"invariants\"",
        "id=\"errata\"",
        "id=\"metadata\"",
        "id=\"tightness\"",
        "abc123",
        "lemma:calculus (ii)",
        "VIOLATED",
    ] {
        if needle == "VIOLATED" {
            // Only non-gating violations in the synthetic data: nothing shown as VIOLATED.
            assert!(!html.contains(needle));
        } else {
            assert!(html.contains(needle), "missing {needle}");
        }
    }
    // The floor entry's zeros were skipped, and the page says so.
    assert!(article(&html, "entry-po-lmo-nc-sc-gy").contains("points skipped"));
}

#[test]
fn text_is_escaped() {
    let mut entries = synthetic_entries();
    entries[0].quantity_text = "<script>alert(\"x\")</script> & G_Y < 1".to_string();
    entries[0]
        .notes
        .push("<img src=\"https://evil.example/x.png\">".to_string());
    entries[0].algorithm = "A&B".to_string();
    let html = verify_page(&meta(), &entries, &[], &[]);
    assert!(!html.contains("<script"), "unescaped script tag");
    assert!(!html.contains("<img"), "unescaped img tag");
    assert!(html.contains("&lt;script&gt;"));
    assert!(html.contains("A&amp;B"));
    self_contained(&html).unwrap();
    assert_svgs_well_formed(&html);
}

#[test]
fn self_contained_rejects_external_references() {
    let html = verify_page(&meta(), &synthetic_entries()[..1], &[], &[]);
    self_contained(&html).unwrap();
    let inject = |snippet: &str| html.replacen("<main>", &format!("<main>{snippet}"), 1);
    for bad in [
        "<img src=\"https://example.org/x.png\">",
        "<img src='http://example.org/x.png'>",
        "<img src=x.png>",
        "<script src=\"app.js\"></script>",
        "<link rel=\"stylesheet\" href=\"style.css\">",
        "<a href=\"https://example.org\">x</a>",
        "<a href=\"//example.org/x\">x</a>",
        "<style>@import 'x.css';</style>",
        "<style>body { background: url(http://example.org/b.png) }</style>",
        "<div style=\"background:url('b.png')\"></div>",
        "<iframe></iframe>",
        "<svg><image xlink:href=\"pic.png\"/></svg>",
        "<object data=\"x.swf\"></object>",
        "<meta http-equiv=\"refresh\" content=\"0; url=https://example.org\">",
        "<meta http-equiv=\"Refresh\" content=\"0; https://example.org\">",
        "<div onclick=\"location='//example.org'\"></div>",
        "<svg onload=\"fetch('http://example.org')\"></svg>",
        "<a href=\"#x\" ping=\"https://example.org\">x</a>",
        "<svg><set attributeName=\"href\" to=\"//example.org\"/></svg>",
        "<svg><animate attributeName=\"href\" values=\"https://example.org\"/></svg>",
        "<svg><rect fill=\"url(https://example.org/p.svg#g)\"/></svg>",
        "<svg><rect filter=\"url(f.svg#blur)\"/></svg>",
        "<div style=\"background: image-set('https://example.org/b.png' 1x)\"></div>",
        "<script>fetch('x')</script>",
        "<script src=\"data:text/javascript,fetch('https://example.org')\"></script>",
        "<style>body { background: image-set('https://example.org/b.png' 1x) }</style>",
    ] {
        assert!(self_contained(&inject(bad)).is_err(), "accepted {bad}");
    }
    for ok in [
        "<a href=\"#summary\">x</a>",
        "<img src=\"data:image/png;base64,AAAA\" alt=\"\">",
        "<div style=\"color: red\"></div>",
        // Shown, never fetched: a label or title may quote any text, URLs included.
        "<svg aria-label=\"// on log-log axes\"></svg>",
        "<abbr title=\"see https://example.org\">x</abbr>",
        "<img src=\"data:image/png;base64,AAAA\" alt=\"a copy of https://example.org/x.png\">",
        "<svg><rect fill=\"url(#grad)\"/></svg>",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    ] {
        self_contained(&inject(ok)).unwrap_or_else(|e| panic!("rejected {ok}: {e}"));
    }
}

#[test]
fn svg_checker_rejects_malformed_svg() {
    let good = plot::rate_plot(&synthetic_entries()[0]).svg;
    svg_well_formed(&good).unwrap();
    svg_well_formed("<svg><g><line x1=\"0\"/></g></svg>").unwrap();
    for bad in [
        "<svg><g></svg>",
        "<svg><g></text></g></svg>",
        "<svg><text>a & b</text></svg>",
        "<svg><text>a < b</text></svg>",
        "<svg><rect x=1/></svg>",
        "<svg><rect x=\"1\" x=\"2\"/></svg>",
        "<svg><rect x=\"1\"></svg>",
        "<svg></svg><g></g>",
        "<g></g>",
        "<svg><text>&bogus;</text></svg>",
        "<svg><text>bell \u{7}</text></svg>",
        "",
    ] {
        assert!(svg_well_formed(bad).is_err(), "accepted {bad}");
    }
    // Truncate a real plot: the end tag is gone, the page check must notice.
    let cut = &good[..good.len() / 2];
    let html = format!("<html><body>{cut}</body></html>");
    let svgs = inline_svgs(&html);
    assert_eq!(svgs.len(), 1);
    assert!(svg_well_formed(svgs[0]).is_err());
}

#[test]
fn non_positive_and_non_finite_values_are_skipped_with_a_note() {
    let mut e = synthetic_entries().remove(0);
    e.seeds[0].points[3].1 = 0.0;
    e.seeds[1].points[4].1 = -1.0;
    e.seeds[2].points[5].1 = f64::NAN;
    e.seeds[3].points[6] = (f64::INFINITY, 1.0);
    e.median.as_mut().unwrap().points[0].1 = 0.0;
    let out = plot::rate_plot(&e);
    svg_well_formed(&out.svg).unwrap();
    // 4 seed points and 1 median point, reported once for the plot.
    assert!(
        out.notes
            .iter()
            .any(|n| n.starts_with("5 of") && n.contains("skipped in 5 series")),
        "{:?}",
        out.notes
    );
    // Nothing plottable at all: still an SVG, with the reason.
    let mut empty = e.clone();
    for s in &mut empty.seeds {
        for p in &mut s.points {
            p.1 = 0.0;
        }
    }
    empty.median = None;
    empty.fit = None;
    empty.envelope = None;
    empty.window = None;
    let out = plot::rate_plot(&empty);
    svg_well_formed(&out.svg).unwrap();
    assert!(
        out.notes.iter().any(|n| n.contains("no plottable data")),
        "{:?}",
        out.notes
    );
    // Local slopes with NaN and huge outliers: robust range, clipped, no panic.
    let mut e2 = synthetic_entries().remove(0);
    e2.local_slopes[0].points[2].1 = -1e6;
    e2.local_slopes[1].points[2].1 = f64::NAN;
    let out = plot::local_slope_plot(&e2);
    svg_well_formed(&out.svg).unwrap();
    assert!(
        out.notes.iter().any(|n| n.contains("clipped")),
        "{:?}",
        out.notes
    );
    // An entry with no data at all.
    let bare = RateEntry {
        seeds: vec![],
        median: None,
        fit: None,
        envelope: None,
        local_slopes: vec![],
        window: None,
        ..e
    };
    svg_well_formed(&plot::rate_plot(&bare).svg).unwrap();
    svg_well_formed(&plot::local_slope_plot(&bare).svg).unwrap();
}

#[test]
fn log_ticks_are_powers_of_ten_and_labels_readable() {
    let (bold, light) = plot::ticks(-0.2, 4.3, Scale::Log);
    assert_eq!(bold, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    assert!(light.iter().any(|v| (v - 2f64.log10()).abs() < 1e-12));
    let (bold, _) = plot::ticks(-16.3, 2.0, Scale::Log);
    assert!((2..=8).contains(&bold.len()), "{bold:?}");
    assert!(bold.iter().all(|b| b.fract() == 0.0));
    // Less than a decade: 1-2-5 ticks.
    let (bold, _) = plot::ticks(0.1, 0.9, Scale::Log);
    assert!(bold.len() >= 2, "{bold:?}");
    let (bold, _) = plot::ticks(-0.93, 0.07, Scale::Linear);
    assert!(bold.len() >= 3);
    assert_eq!(plot::pow10_label(0), "1");
    assert_eq!(plot::pow10_label(3), "1000");
    assert_eq!(plot::pow10_label(-3), "10⁻³");
    assert_eq!(plot::pow10_label(12), "10¹²");
    assert_eq!(plot::fmt_exponent(1.0 / 6.0), "1/6");
    assert_eq!(plot::fmt_exponent(1.0), "1");
    assert_eq!(plot::fmt_exponent(0.937), "0.937");
    // A log plot labels its powers of ten.
    let svg = plot::rate_plot(&synthetic_entries()[0]).svg;
    assert!(
        svg.contains("\n1000\n") && svg.contains("\n10⁻"),
        "tick labels missing"
    );
    assert!(svg.contains("iterations T"), "axis label missing");
}

#[test]
fn clipping_splits_lines_at_the_box() {
    let pieces = plot::clip_polyline(
        &[(0.0, 0.0), (1.0, 5.0), (2.0, 0.0)],
        (0.0, 2.0),
        (0.0, 1.0),
    );
    assert_eq!(pieces.len(), 2);
    for p in pieces.iter().flatten() {
        assert!(p.1 <= 1.0 + 1e-12 && p.1 >= 0.0);
    }
    assert!(plot::clip_polyline(&[(5.0, 5.0), (6.0, 6.0)], (0.0, 1.0), (0.0, 1.0)).is_empty());
}

#[test]
fn runs_page_shows_provenance_of_baselines() {
    let mut runs = synthetic_runs();
    let html = runs_page(&meta(), &runs);
    self_contained(&html).unwrap();
    assert_eq!(assert_svgs_well_formed(&html), 2);
    assert!(html.contains("RECONSTRUCTED (Xu et al. 2023, Algorithm 1)"));
    assert!(
        html.contains("SP-FW [VERIFIED]"),
        "legend lacks the provenance"
    );
    assert!(!html.contains("provenance missing"));
    // Negative control: a baseline without provenance is flagged, not shown bare.
    runs[4].provenance = None;
    let html = runs_page(&meta(), &runs);
    assert!(html.contains("provenance missing"));
    assert!(
        html.contains("AGP [provenance"),
        "legend lacks the missing-provenance flag"
    );
}

#[test]
fn experiment_page_has_figure_table3_and_claims() {
    let runs = synthetic_runs();
    let exp = ExperimentReport {
        experiment: "dl".to_string(),
        time_limit_s: 10.0,
        runs: runs.clone(),
        claims: vec![
            ClaimVerdict {
                claim: "LMO-PO is the most effective configuration".to_string(),
                label: Some("fig:Experiment".to_string()),
                holds: Some(true),
                evidence: "lowest final measure 2.1e-4".to_string(),
            },
            iteration_claim(&runs),
        ],
        notes: vec!["fidelity term uses A (appendix), factor 1/(2n)".to_string()],
        table3: column("dl"),
    };
    let html = experiment_page(&meta(), &exp);
    self_contained(&html).unwrap();
    assert_eq!(assert_svgs_well_formed(&html), 2);
    for v in ["48466", "20997", "46688", "42016", "21991"] {
        assert!(html.contains(v), "paper's Table 3 value {v} missing");
    }
    assert!(html.contains("table:iters"), "iteration claim row missing");
    assert!(html.contains("LMO-PO is the most effective configuration"));
    assert!(html.contains("GUESSED step sizes"));
    // NEWS20 column: R-PDCG is N/A in the paper.
    let news = ExperimentReport {
        experiment: "news20".to_string(),
        table3: column("news20"),
        ..exp
    };
    let html = experiment_page(&meta(), &news);
    assert!(html.contains(">N/A<") && html.contains(">315<"));
}

#[test]
fn table3_data_and_iteration_claim() {
    assert_eq!(paper_iterations("dl", "LMO-LMO"), Some(42016));
    assert_eq!(paper_iterations("news20", "r-pdcg"), None);
    assert_eq!(paper_iterations("rcv1", "PO-LMO"), Some(386));
    // The paper's own DL numbers satisfy its claim.
    let from_paper = |col: &str| -> Vec<RunSummary> {
        [
            "SP-FW", "AGP", "R-PDCG", "CG-RPGA", "LMO-LMO", "LMO-PO", "PO-LMO",
        ]
        .iter()
        .filter_map(|name| {
            Some(RunSummary {
                algorithm: name.to_string(),
                provenance: None,
                problem: None,
                measure: None,
                status: "time-limit".to_string(),
                iterations: paper_iterations(col, name)?,
                wall_time_s: None,
                cpu_share: None,
                by_iteration: None,
                by_time: None,
            })
        })
        .collect()
    };
    for col in ["dl", "rcv1", "news20"] {
        assert_eq!(iteration_claim(&from_paper(col)).holds, Some(true), "{col}");
    }
    // Negative control: a PO-primal method with the most iterations breaks the claim.
    let mut runs = from_paper("dl");
    runs.iter_mut()
        .find(|r| r.algorithm == "PO-LMO")
        .unwrap()
        .iterations = 99_999;
    assert_eq!(iteration_claim(&runs).holds, Some(false));
    assert_eq!(iteration_claim(&runs[..1]).holds, None);
}

#[test]
fn check_page_lists_invariants_and_flags_gating_violations() {
    let mut inv = synthetic_invariants();
    let html = check_page(&meta(), &inv, &synthetic_errata());
    self_contained(&html).unwrap();
    assert!(html.contains("lemma:calculus (ii)") && html.contains("not applied"));
    assert!(!html.contains("VIOLATED"));
    assert!(html.contains("erratum confirmed numerically"));
    inv[0].violations = 3;
    let html = check_page(&meta(), &inv, &[]);
    assert!(html.contains("VIOLATED"));
}

#[test]
fn tightness_notes() {
    assert_eq!(tightness_note(0.25, 0.27, None, 0.05), "rate looks tight");
    assert!(tightness_note(0.25, 0.9, Some((0.8, 1.0)), 0.05).contains("loose by about 0.65"));
    assert!(tightness_note(0.25, 0.1, Some((0.05, 0.15)), 0.05).contains("violated"));
}

/// Equal JSON trees, numbers equal to a relative 1e-14.
fn json_close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-14 * x.abs().max(y.abs()).max(1e-300)
        }
        (Array(x), Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_close(p, q))
        }
        (Object(x), Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_close(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn records_round_trip_through_json_and_accept_minimal_input() {
    let e = synthetic_entries().remove(0);
    let json = serde_json::to_string(&e).unwrap();
    let back: RateEntry = serde_json::from_str(&json).unwrap();
    // serde_json may round the last bit of a float: compare the JSON trees with a tolerance.
    let (a, b) = (
        serde_json::to_value(&e).unwrap(),
        serde_json::to_value(&back).unwrap(),
    );
    assert!(json_close(&a, &b), "round trip changed the record");
    let minimal = r#"{"id":"x","case":"lmo-lmo/nc-c","algorithm":"LMO-LMO","setting":"NC-C",
        "quantity_text":"G_Y at (x_T, y_T)","p":0.1666,"verdict":"floor","label":"theorem:x (i)"}"#;
    let m: RateEntry = serde_json::from_str(minimal).unwrap();
    assert_eq!(m.verdict, Verdict::Floor);
    assert!(m.seeds.is_empty() && m.p_hat.is_none());
    let html = verify_page(&meta(), &[m], &[], &[]);
    self_contained(&html).unwrap();
    assert_svgs_well_formed(&html);
    assert!(serde_json::from_str::<RateEntry>(&minimal.replace("floor", "maybe")).is_err());
}

#[test]
fn utc_dates_and_meta() {
    assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
    assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
    assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13 UTC");
    let m = Meta::current(Some("quick"), &[1, 2]);
    assert_eq!(m.version, env!("CARGO_PKG_VERSION"));
    assert!(m.date.ends_with("UTC") && !m.machine.is_empty());
}

#[test]
fn write_atomic_replaces_whole_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/index.html");
    write_atomic(&path, b"first").unwrap();
    write_atomic(&path, b"second").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    // Negative controls: a parent that is a file, and a path naming no file.
    let file = dir.path().join("plain");
    std::fs::write(&file, b"x").unwrap();
    assert!(write_atomic(file.join("index.html"), b"y").is_err());
    assert!(write_atomic(dir.path().join(".."), b"y").is_err());
}

#[test]
fn multi_algorithm_plots_use_distinct_pens() {
    let names = [
        "LMO-PO", "LMO-LMO", "PO-LMO", "SP-FW", "AGP", "R-PDCG", "CG-RPGA",
    ];
    let pens: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| plot::algorithm_pen(n, i))
        .collect();
    for i in 0..pens.len() {
        for j in 0..i {
            let (a, b) = (pens[i], pens[j]);
            // Distinguishable without colour: dash pattern or marker differ.
            assert!(
                a.dash != b.dash || a.marker != b.marker,
                "{} vs {}",
                names[i],
                names[j]
            );
        }
    }
    let series: Vec<Series> = synthetic_runs()
        .into_iter()
        .map(|r| r.by_iteration.unwrap())
        .collect();
    let out = plot::algorithms_plot("t", Axis::log("iteration"), Axis::log("gap"), &series);
    svg_well_formed(&out.svg).unwrap();
    // The first checkpoint is t = 0: skipped on a log axis, with a note.
    assert!(out.notes.iter().any(|n| n.contains("skipped")));
}

/// Writes the synthetic pages and the README illustration when `SADDLEFW_WRITE_SAMPLE` is set
/// (a no-op otherwise, so the suite never writes into the tree by accident).
#[test]
fn write_sample() {
    if std::env::var_os("SADDLEFW_WRITE_SAMPLE").is_none() {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let entries = synthetic_entries();
    let mut m = meta();
    m.command = Some("SADDLEFW_WRITE_SAMPLE=1 cargo test --release report::write_sample (synthetic data, an illustration)".to_string());
    write_atomic(
        root.join("sample/index.html"),
        verify_page(&m, &entries, &synthetic_invariants(), &synthetic_errata()).as_bytes(),
    )
    .unwrap();
    write_atomic(
        root.join("sample/runs.html"),
        runs_page(&m, &synthetic_runs()).as_bytes(),
    )
    .unwrap();
    let exp = ExperimentReport {
        experiment: "dl".to_string(),
        time_limit_s: 10.0,
        runs: synthetic_runs(),
        claims: vec![],
        notes: vec!["synthetic data".to_string()],
        table3: column("dl"),
    };
    write_atomic(
        root.join("sample/experiment.html"),
        experiment_page(&m, &exp).as_bytes(),
    )
    .unwrap();
    write_atomic(
        root.join("sample/check.html"),
        check_page(&m, &synthetic_invariants(), &synthetic_errata()).as_bytes(),
    )
    .unwrap();
    // An illustration: one entry, clearly labelled as synthetic.
    let mut e = entries[0].clone();
    e.case = "ILLUSTRATION, synthetic data".to_string();
    e.quantity_text = "mean of G_X^LMO over t = 0..T".to_string();
    let svg = plot::rate_plot(&e).svg;
    svg_well_formed(&svg).unwrap();
    assert!(svg.len() < 60_000, "sample SVG is {} bytes", svg.len());
    write_atomic(
        root.join("sample").join("sample-rate-plot.svg"),
        svg.as_bytes(),
    )
    .unwrap();
}

#[test]
fn empty_inputs_render_valid_pages() {
    let m = meta();
    for html in [
        verify_page(&m, &[], &[], &[]),
        check_page(&m, &[], &[]),
        runs_page(&m, &[]),
        experiment_page(
            &m,
            &ExperimentReport {
                experiment: "unknown-data".to_string(),
                time_limit_s: 1.0,
                runs: vec![],
                claims: vec![],
                notes: vec![],
                table3: column("unknown-data"),
            },
        ),
    ] {
        self_contained(&html).unwrap();
        assert_svgs_well_formed(&html);
        assert!(html.contains("id=\"metadata\""));
    }
    // Verdicts serialise as in verify.json.
    assert_eq!(
        serde_json::to_string(&Verdict::Disputed).unwrap(),
        "\"disputed\""
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Any f64, with the awkward ones (0, negatives, NaN, infinities, extremes) made likely.
    fn value() -> impl Strategy<Value = f64> {
        prop_oneof![
            4 => (1e-300f64..1e300).prop_map(|v| v),
            1 => Just(0.0),
            1 => Just(-1.0),
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(f64::MIN_POSITIVE),
            1 => any::<f64>(),
        ]
    }

    proptest! {
        #![proptest_config(crate::common::config(48, "report.txt"))]

        /// Whatever the numbers and the text, a page renders, references nothing outside
        /// itself, and every inline SVG is well formed.
        #[test]
        fn any_data_and_text_give_a_valid_page(
            pts in prop::collection::vec((value(), value()), 0..30),
            slopes in prop::collection::vec((value(), value()), 0..30),
            text in "(.|\\PC|[\\x00-\\x1f<>&\"']){0,40}",
            p in value(),
            window in prop::option::of((value(), value())),
        ) {
            let mut e = synthetic_entries().remove(0);
            e.seeds = vec![Series::new(text.clone(), pts.clone())];
            e.median = Some(Series::new("median", pts));
            e.local_slopes = vec![Series::new(text.clone(), slopes)];
            e.p = p;
            e.window = window;
            e.quantity_text = text.clone();
            e.algorithm = text.clone();
            e.notes = vec![text.clone()];
            e.tightness = None;
            let html = verify_page(&meta(), &[e], &[], &[]);
            prop_assert!(self_contained(&html).is_ok(), "{:?}", self_contained(&html));
            for s in inline_svgs(&html) {
                prop_assert!(svg_well_formed(s).is_ok(), "{:?}", svg_well_formed(s));
            }
        }
    }
}
