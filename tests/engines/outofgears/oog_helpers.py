"""Plain helpers shared by the Out of Gears engine tests (importable from any test module)."""


def all_keys(value, found=None) -> set:
    """Every dict key anywhere inside a JSON-like value (to check what a view never holds)."""
    found = set() if found is None else found
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(k)
            all_keys(v, found)
    elif isinstance(value, list):
        for v in value:
            all_keys(v, found)
    return found
