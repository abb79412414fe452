axiom (forall x, y : bv32 :: f(x, y) == g(x, y));
