"""A second engine registered under a name already taken (``good``); the first registration wins."""

from tests.plugins.good import Good


class Twin(Good):
    name = "twin"
    description = "registered under a name already taken"
