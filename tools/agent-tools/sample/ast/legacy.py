"""Old-style checks that ast_edit rewrites in the demo (see ../README.md)."""


def is_low(level, threshold):
    if level.quantity < threshold:
        return True
    else:
        return False


def has_sku(level):
    if level.sku:
        # An empty SKU does not count.
        return True
    else:
        return False
