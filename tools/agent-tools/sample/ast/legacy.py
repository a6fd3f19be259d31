"""Old-style checks that the harness demo rewrites with ast_edit (see src/plugins/ast.ts of the harness)."""


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
