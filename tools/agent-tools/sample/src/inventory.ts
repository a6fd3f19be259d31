/** One line of stock. */
export interface Item {
  sku: string;
  name: string;
  quantity: number;
  unitPrice: number;
}

const LOW_STOCK = 5;

/** The total value of the stock, in cents. */
export function stockValue(items: readonly Item[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
}

/** Items that should be reordered. */
export function lowStock(items: readonly Item[]): Item[] {
  return items.filter((item) => item.quantity < LOW_STOCK);
}
