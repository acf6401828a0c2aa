"""The README's Python example runs as printed: its solver passes the nonconvex LMO-LMO case
(smoothing beta_t > 0, cosine instances) at the test tier here; test_gate.py runs the same
algorithm on every LMO-LMO entry at the quick tier."""

import os
import re

import saddlefw

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")


def readme_example():
    text = open(README, encoding="utf-8").read()
    section = text[text.index("**Python route**"):text.index("**Rust route**")]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs():
    code = readme_example()
    assert 'RateCheck("lmo-lmo/", tier="quick").solver(MyFW).run().assert_passed()' in code
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    out = saddlefw.RateCheck("lmo-lmo/nc-c/", tier="test").solver(scope["MyFW"]).progress(False).run()
    out.assert_passed()
    assert [e["id"] for e in out.entries] == ["lmo-lmo/nc-c/primal", "lmo-lmo/nc-c/dual"]
