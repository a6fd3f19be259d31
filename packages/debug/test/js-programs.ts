/** Programs for the js adapter's tests. Lines the tests stop at carry a `// @name` marker (see lineOf in programs.ts). */

/** A TypeScript program: types, a class, async code; run through tsx and compiled by tsc with source maps. */
export const TS_CART = `interface Item {
  name: string;
  price: number;
  qty: number;
}

export class Cart {
  private readonly items: Item[] = [];

  add(item: Item): this {
    this.items.push(item);
    return this;
  }

  total(): number {
    let sum = 0;
    for (const item of this.items) {
      const line: number = item.price * item.qty; // @line
      sum += line;
    }
    return sum;
  }
}

async function main(): Promise<void> {
  const cart = new Cart().add({ name: 'pen', price: 2, qty: 3 }).add({ name: 'ink', price: 5, qty: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1));
  const total: number = cart.total(); // @total
  console.log(\`total \${total}\`);
}

void main();
`;

/** Forks itself: the child computes and exits; the parent reports the child's exit. */
export const FORKER_JS = `const { fork } = require('node:child_process');
if (process.argv[2] === 'child') {
  const answer = 6 * 7; // @child
  console.log(\`child says \${answer}\`);
  process.exit(0);
}
const child = fork(__filename, ['child']);
child.on('exit', (code) => {
  console.log(\`child exited \${code}\`); // @parent
});
`;

/** Forks a child that sends one message and so ends (its IPC channel holds it no longer); the parent prints it. */
export const FORK_REPORT_JS = `const { fork } = require('node:child_process');
if (process.argv[2] === 'child') {
  const total = [3, 5, 7].reduce((a, b) => a + b, 0);
  process.send({ total }); // @send
} else {
  const child = fork(__filename, ['child']);
  child.on('message', (m) => {
    console.log(\`child sent \${m.total}\`); // @got
  });
}
`;

/** Starts a worker thread that squares a number and posts it back. */
export const WORKER_JS = `const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
if (isMainThread) {
  const worker = new Worker(__filename, { workerData: { n: 5 } });
  worker.on('message', (m) => console.log(\`worker said \${m}\`));
  worker.on('exit', () => console.log('worker done')); // @main
} else {
  const squared = workerData.n * workerData.n; // @worker
  parentPort.postMessage(squared);
}
`;

/** Throws an uncaught error from a nested call, after catching one it expected. */
export const THROWER_JS = `function parseSize(text) {
  const size = Number(text);
  if (!Number.isInteger(size) || size < 0) throw new RangeError(\`bad size: \${text}\`); // @throw
  return size;
}
try {
  parseSize('-1');
} catch (error) {
  console.log('caught', error.message); // @caught
}
const sizes = ['3', 'x'].map(parseSize);
console.log(sizes);
`;

/** A loop that runs until stopped, for pause and attach. */
export const SPINNER_JS = `let ticks = 0;
function tick() {
  ticks += 1; // @tick
  return ticks;
}
for (;;) {
  tick();
}
`;

/** A server-like program for attach: wakes every 50 ms, forever. */
export const SLEEPER_JS = `let wakes = 0;
function wake() {
  wakes += 1; // @wake
  return wakes;
}
setInterval(wake, 50);
`;

/** Calls into a dependency (in node_modules) and back: step_in should not stop inside the dependency. */
export const CALLS_DEP_JS = `const dep = require('dep');
function double(x) {
  return x * 2;
}
const value = dep.apply(double, 21); // @call
console.log('value', value);
`;

/** The dependency CALLS_DEP_JS uses: it calls back into the program. */
export const DEP_JS = `exports.apply = function apply(fn, x) {
  const result = fn(x);
  return result;
};
`;

/** A loop for conditions, hit counts and logpoints. */
export const LOOP_JS = `function square(n) {
  return n * n;
}
let total = 0;
for (let i = 0; i < 6; i++) {
  const s = square(i); // @loop
  total += s;
}
console.log('total', total);
`;
