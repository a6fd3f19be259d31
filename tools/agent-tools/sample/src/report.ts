import { type Item, lowStock, stockValue } from './inventory.js';

/** A one-paragraph stock report. */
export function report(items: readonly Item[]): string {
  const low = lowStock(items);
  const value = (stockValue(items) / 100).toFixed(2);
  const names = low.map((item) => item.name).join(', ');
  return `Stock value ${value}; ${low.length} item(s) to reorder${low.length ? `: ${names}` : ''}.`;
}

if (process.argv[1]?.endsWith('report.js')) {
  console.log(report([{ sku: 'A1', name: 'bolts', quantity: 3, unitPrice: 12 }]));
}
