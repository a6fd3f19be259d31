/** Test programs, with `@name` markers on the lines tests stop at. */

/** The 1-based line holding `marker`. */
export function lineOf(source: string, marker: string): number {
  const index = source.split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker ${marker} not in the program`);
  return index + 1;
}

export const PYTHON_APP = `"""Debug fixture: nested data, a call, output on both streams, exit code 3."""
import sys


class Box:
    def __init__(self, label, items):
        self.label = label
        self.items = items


def total(box):
    subtotal = 0  # @py-total-first
    for item in box.items:  # @py-total-loop
        subtotal += item["qty"]
    return subtotal


def main():
    box = Box("crate", [{"sku": "A1", "qty": 3}, {"sku": "B2", "qty": 4}])
    count = total(box)  # @py-call
    print("total", count)
    print("warning: low stock", file=sys.stderr)
    return count


if __name__ == "__main__":
    sys.exit(main() - 4)
`;

/** A Python program that waits for a debugger and loops, for attach. */
export const PYTHON_SERVER = `import time


def tick(n):
    value = n * 2  # @py-tick
    return value


for i in range(600):
    tick(i)
    time.sleep(0.05)
`;

export const C_APP = `#include <stdio.h>

struct point { int x; int y; };

static int twice(int v) {
  int r = v * 2; /* @c-twice */
  return r;
}

int main(void) {
  struct point p = { 3, 4 };
  int values[3] = { 1, 2, 3 };
  printf("start %d\\n", p.x);
  fflush(stdout);
  int t = twice(p.y); /* @c-call */
  fprintf(stderr, "warning %d\\n", t + values[2]);
  return t - 5; /* @c-return */
}
`;

export const C_CMAKE = `cmake_minimum_required(VERSION 3.10)
project(app C)
add_executable(app app.c)
`;

export const GO_MOD = `module example.com/app

go 1.19
`;

export const GO_APP = `package main

import (
	"fmt"
	"os"
)

type point struct{ X, Y int }

func twice(v int) int {
	r := v * 2 // @go-twice
	return r
}

func main() {
	p := point{3, 4}
	stock := map[string][]int{"a": {1, 2}}
	fmt.Println("start", p.X, len(stock))
	t := twice(p.Y) // @go-call
	fmt.Fprintln(os.Stderr, "warning", t)
	os.Exit(t - 5)
}
`;

/** A C program that runs until killed, for pause and "still running". */
export const C_LOOP = `#include <stdio.h>
#include <unistd.h>

int main(void) {
  long ticks = 0;
  for (;;) {
    ticks++;
    usleep(20000); /* @c-loop */
  }
  return 0;
}
`;
