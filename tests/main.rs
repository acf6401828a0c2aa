mod invariants;
