//! Envelope formulas of user theorem entries: a small arithmetic language over the horizon `T`
//! and the instance's certified constants, evaluated in f64 only (so `1/2` is 0.5, never an
//! integer division).
//!
//! Grammar: numbers (`2`, `0.5`, `1e-3`), variables, `+ - * /`, `^` (power, right
//! associative, binds tighter than unary minus: `-T^2 = -(T^2)`), parentheses, and the
//! functions `log` (natural), `sqrt`, `exp`, `min(a, b)`, `max(a, b)`.
//!
//! ```
//! use saddlefw::paper::formula::Formula;
//! let f = Formula::parse("(Lxx*Dx^2 + Dy^2) * (T+1)^(-1/2)", &["T", "Lxx", "Dx", "Dy"]).unwrap();
//! let v = f.eval(&|name| match name { "T" => 3.0, "Lxx" => 2.0, "Dx" => 1.0, _ => 2.0 });
//! assert_eq!(v, (2.0 + 4.0) * 0.5);
//! // unknown names and syntax errors say where
//! let e = Formula::parse("T^(1/2) + L", &["T"]).unwrap_err();
//! assert!(e.contains("unknown variable \"L\""), "{e}");
//! assert!(Formula::parse("(T+1", &["T"]).unwrap_err().contains("expected ')'"));
//! // a long chain is a flat list, not a nesting: no recursion grows with it
//! let long = vec!["T"; 50_000].join("+");
//! assert_eq!(Formula::parse(&long, &["T"]).unwrap().eval(&|_| 1.0), 50_000.0);
//! ```
//!
//! Bounds: at most [`MAX_LEN`] bytes of text, and at most [`MAX_DEPTH`] nested parentheses,
//! unary minus signs, powers and function calls; chains of `+ -` and `* /` are lists of any
//! length (parsed, evaluated and dropped without recursion over their terms).

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    root: Node,
    text: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Num(f64),
    Var(String),
    Neg(Box<Node>),
    /// `^`.
    Pow(Box<Node>, Box<Node>),
    /// A left-associative chain `a op b op c ...` of `+ -` or of `* /`: the first term and
    /// each `(op, term)` after it.
    Chain(Box<Node>, Vec<(char, Node)>),
    Call(Func, Vec<Node>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Func {
    Log,
    Sqrt,
    Exp,
    Min,
    Max,
}

impl Func {
    fn of(name: &str) -> Option<(Func, usize)> {
        Some(match name {
            "log" => (Func::Log, 1),
            "sqrt" => (Func::Sqrt, 1),
            "exp" => (Func::Exp, 1),
            "min" => (Func::Min, 2),
            "max" => (Func::Max, 2),
            _ => return None,
        })
    }
}

/// Deepest nesting of parentheses, unary minus, powers and calls accepted (a bound on the
/// recursion).
pub const MAX_DEPTH: usize = 64;

/// Longest formula text accepted, in bytes.
pub const MAX_LEN: usize = 1 << 20;

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    vars: &'a [&'a str],
    depth: usize,
}

impl Formula {
    /// Parses `text`; `vars` are the variable names it may use. Errors say what and where
    /// (character offset).
    pub fn parse(text: &str, vars: &[&str]) -> Result<Formula, String> {
        if text.len() > MAX_LEN {
            return Err(format!(
                "formula of {} bytes: at most {MAX_LEN} are accepted",
                text.len()
            ));
        }
        let mut p = Parser {
            s: text.as_bytes(),
            at: 0,
            vars,
            depth: 0,
        };
        let root = p.expr()?;
        p.skip_ws();
        if p.at < p.s.len() {
            return Err(p.err("unexpected input"));
        }
        Ok(Formula {
            root,
            text: text.to_string(),
        })
    }
    /// The formula as written.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The value with variables from `var` (only names given to [`Formula::parse`] occur).
    pub fn eval(&self, var: &dyn Fn(&str) -> f64) -> f64 {
        eval(&self.root, var)
    }
}

fn eval(n: &Node, var: &dyn Fn(&str) -> f64) -> f64 {
    match n {
        Node::Num(v) => *v,
        Node::Var(name) => var(name),
        Node::Neg(a) => -eval(a, var),
        Node::Pow(a, b) => eval(a, var).powf(eval(b, var)),
        Node::Chain(first, rest) => rest.iter().fold(eval(first, var), |a, (op, b)| {
            let b = eval(b, var);
            match op {
                '+' => a + b,
                '-' => a - b,
                '*' => a * b,
                _ => a / b,
            }
        }),
        Node::Call(f, args) => {
            let a = eval(&args[0], var);
            match f {
                Func::Log => a.ln(),
                Func::Sqrt => a.sqrt(),
                Func::Exp => a.exp(),
                Func::Min => a.min(eval(&args[1], var)),
                Func::Max => a.max(eval(&args[1], var)),
            }
        }
    }
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("{what} at character {}", self.at + 1)
    }
    fn skip_ws(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", c as char)))
        }
    }
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, String>) -> Result<T, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("formula nested too deeply"));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }
    fn expr(&mut self) -> Result<Node, String> {
        let first = self.term()?;
        let mut rest = Vec::new();
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.at += 1;
            rest.push((op as char, self.term()?));
        }
        Ok(chain(first, rest))
    }
    fn term(&mut self) -> Result<Node, String> {
        let first = self.unary()?;
        let mut rest = Vec::new();
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.at += 1;
            rest.push((op as char, self.unary()?));
        }
        Ok(chain(first, rest))
    }
    fn unary(&mut self) -> Result<Node, String> {
        if self.peek() == Some(b'-') {
            self.at += 1;
            return self.nested(|p| Ok(Node::Neg(Box::new(p.unary()?))));
        }
        self.power()
    }
    fn power(&mut self) -> Result<Node, String> {
        let base = self.atom()?;
        if self.peek() == Some(b'^') {
            self.at += 1;
            let exp = self.nested(|p| p.unary())?;
            return Ok(Node::Pow(Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }
    fn atom(&mut self) -> Result<Node, String> {
        match self.peek() {
            Some(b'(') => {
                self.at += 1;
                let e = self.nested(|p| p.expr())?;
                self.expect(b')')?;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.name(),
            Some(_) => Err(self.err("expected a number, a variable or '('")),
            None => Err(self.err("unexpected end of formula")),
        }
    }
    fn number(&mut self) -> Result<Node, String> {
        let start = self.at;
        while self.at < self.s.len()
            && (self.s[self.at].is_ascii_digit() || self.s[self.at] == b'.')
        {
            self.at += 1;
        }
        if self.at < self.s.len() && matches!(self.s[self.at], b'e' | b'E') {
            self.at += 1;
            if self.at < self.s.len() && matches!(self.s[self.at], b'+' | b'-') {
                self.at += 1;
            }
            while self.at < self.s.len() && self.s[self.at].is_ascii_digit() {
                self.at += 1;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Node::Num(v)),
            _ => {
                self.at = start;
                Err(self.err(&format!("bad number {}", crate::error::abridged(text))))
            }
        }
    }
    fn name(&mut self) -> Result<Node, String> {
        let start = self.at;
        while self.at < self.s.len()
            && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'_')
        {
            self.at += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        if self.peek() == Some(b'(') {
            let Some((f, arity)) = Func::of(name) else {
                self.at = start;
                return Err(self.err(&format!(
                    "unknown function {name:?} (known: log, sqrt, exp, min, max)"
                )));
            };
            self.at += 1;
            let mut args = vec![self.nested(|p| p.expr())?];
            while args.len() < arity {
                self.expect(b',')?;
                args.push(self.nested(|p| p.expr())?);
            }
            self.expect(b')')?;
            return Ok(Node::Call(f, args));
        }
        if !self.vars.contains(&name) {
            self.at = start;
            return Err(self.err(&format!(
                "unknown variable {name:?} (known: {})",
                self.vars.join(", ")
            )));
        }
        Ok(Node::Var(name.to_string()))
    }
}

/// `first` alone, or the chain of it and `rest`.
fn chain(first: Node, rest: Vec<(char, Node)>) -> Node {
    if rest.is_empty() {
        first
    } else {
        Node::Chain(Box::new(first), rest)
    }
}
