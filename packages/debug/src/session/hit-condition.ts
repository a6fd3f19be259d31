/**
 * Hit conditions as the tool takes them: a count, with an operator. `"3"` and `"== 3"` stop at the third hit only,
 * `">= 3"` at the third and every later one, `"> 3"`, `"< 3"`, `"<= 3"` likewise, `"% 3"` at every third. Adapters
 * spell this differently (lldb-dap only "ignore the hits before N"), so each adapter translates it or refuses it.
 */
export interface HitCondition {
  readonly op: '==' | '>=' | '>' | '<' | '<=' | '%';
  readonly count: number;
}

/** What the tool's schema accepts as a hit condition. */
export const HIT_CONDITION = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/;

/** Reads a hit condition the schema accepted; `undefined` for any other text. */
export function parseHitCondition(text: string): HitCondition | undefined {
  const match = HIT_CONDITION.exec(text);
  if (!match) return undefined;
  return { op: (match[1] ?? '==') as HitCondition['op'], count: Number(match[2]) };
}

/** The canonical spelling (`"== 3"`, `"% 2"`), which is what the breakpoint book keeps and answers show. */
export function formatHitCondition(condition: HitCondition): string {
  return `${condition.op} ${condition.count}`;
}

/** How an adapter is sent a hit condition: its own text, or why it cannot keep it. */
export type HitConditionTranslation = { readonly text: string } | { readonly unsupported: string };

/** The DAP text for adapters that take the operators as written (debugpy, and by default any other). */
export function plainHitCondition(condition: HitCondition): HitConditionTranslation {
  return { text: formatHitCondition(condition) };
}
