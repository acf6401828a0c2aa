//! The paper's experiments (Figure 1, Table 3): dictionary learning and robust multiclass
//! classification. [`params`] holds the paper's parameters as plain data; the problems live in
//! [`crate::problems::dictionary`] and [`crate::problems::dro`], the data reader in
//! [`crate::data`].

pub mod params;
