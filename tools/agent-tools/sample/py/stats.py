"""Summary statistics of stock levels."""

from dataclasses import dataclass


@dataclass
class Level:
    sku: str
    quantity: int


def mean_quantity(levels: list[Level]) -> float:
    if not levels:
        return 0.0
    total = sum(level.quantity for level in levels)
    return total / len(levels)


def below(levels: list[Level], threshold: int) -> list[str]:
    return [level.sku for level in levels if level.quantity < threshold]


if __name__ == "__main__":
    stock = [Level("A1", 3), Level("B2", 10), Level("C3", 7)]
    print(mean_quantity(stock), below(stock, 5))
