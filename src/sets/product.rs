//! Cartesian products of sets, composed by offsets into one flat vector.

use super::{ConvexSet, RankOne, SetSpec};

/// The Cartesian product `U_1 x ... x U_k`; block `i` occupies `offsets[i]..offsets[i+1]`.
///
/// Diameter `sqrt(sum D_i^2)`. Not strongly convex with two or more factors (moving only one
/// block leaves the others on their boundary); a single factor passes its modulus through.
#[derive(Debug)]
pub struct Product {
    parts: Vec<Box<dyn ConvexSet>>,
    offsets: Vec<usize>,
}

impl Product {
    /// The product of `parts` (at least one).
    pub fn new(parts: Vec<Box<dyn ConvexSet>>) -> crate::Result<Self> {
        if parts.is_empty() {
            return Err(crate::Error::invalid(
                "product",
                "needs at least one factor",
            ));
        }
        let mut offsets = vec![0];
        for p in &parts {
            offsets.push(offsets.last().unwrap() + p.dim());
        }
        Ok(Product { parts, offsets })
    }
    /// The factors.
    pub fn parts(&self) -> &[Box<dyn ConvexSet>] {
        &self.parts
    }
    /// The block range of factor `i`.
    pub fn block(&self, i: usize) -> std::ops::Range<usize> {
        self.offsets[i]..self.offsets[i + 1]
    }
}

impl ConvexSet for Product {
    fn dim(&self) -> usize {
        *self.offsets.last().unwrap()
    }
    fn name(&self) -> String {
        let names: Vec<String> = self.parts.iter().map(|p| p.name()).collect();
        names.join(" x ")
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        for (i, p) in self.parts.iter().enumerate() {
            let r = self.block(i);
            p.lmo(&g[r.clone()], &mut out[r]);
        }
    }
    /// The same vertex as [`ConvexSet::lmo`]; true, with the factors and their block's offset in
    /// `vertex`, when a factor's vertex is rank one (the first such factor's).
    fn lmo_rank_one(&self, g: &[f64], out: &mut [f64], vertex: &mut RankOne) -> bool {
        let mut rank_one = None;
        for (i, p) in self.parts.iter().enumerate() {
            let r = self.block(i);
            if rank_one.is_none() {
                if p.lmo_rank_one(&g[r.clone()], &mut out[r.clone()], vertex) {
                    rank_one = Some(r.start);
                }
            } else {
                p.lmo(&g[r.clone()], &mut out[r]);
            }
        }
        match rank_one {
            Some(offset) => {
                // relative to this product (a nested product's factor already holds its own)
                vertex.offset += offset;
                true
            }
            None => false,
        }
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        for (i, p) in self.parts.iter().enumerate() {
            let r = self.block(i);
            p.project(&z[r.clone()], &mut out[r]);
        }
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.dim()
            && self
                .parts
                .iter()
                .enumerate()
                .all(|(i, p)| p.contains(&z[self.block(i)], tol))
    }
    fn diameter(&self) -> f64 {
        self.parts
            .iter()
            .map(|p| p.diameter().powi(2))
            .sum::<f64>()
            .sqrt()
    }
    fn strong_convexity(&self) -> Option<f64> {
        if self.parts.len() == 1 {
            self.parts[0].strong_convexity()
        } else {
            None
        }
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::Product {
            parts: self.parts.iter().map(|p| p.spec()).collect::<Option<_>>()?,
        })
    }
}
