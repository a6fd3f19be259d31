import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { findLanguage, languageOfFile } from '../src/languages.js';
import { comparePattern, grammarDiffers } from './differential/compare.js';
import { generatePatterns } from './differential/generate.js';
import { generateRules } from './differential/generate-rules.js';
import { oracleLocations, oracleRuleLocations } from './differential/oracle.js';

/**
 * The languages added for ast-grep 0.51's built-in set, on small programs written for this test: each parses
 * cleanly, and patterns and rules generated from it (fixed seed) find exactly what the ast-grep CLI finds, every
 * difference explained as in the differential. Every one of them is also in the generated differentials on real
 * code from Debian or npm (corpora.ts); these programs add the common constructs a small corpus may lack.
 */
const SAMPLES: Readonly<Record<string, { file: string; code: string }>> = {
  scala: {
    file: 'Main.scala',
    code: `object Main {
  def add(x: Int, y: Int): Int = x + y
  val xs = List(1, 2, 3).map(_ * 2)
  case class Point(x: Int, y: Int)
  def describe(p: Point): String = p match {
    case Point(0, 0) => "origin"
    case Point(x, _) if x > 0 => s"right $x"
    case _ => "elsewhere"
  }
  def main(args: Array[String]): Unit = {
    println(add(1, 2))
    xs.foreach(x => println(x))
    if (xs.nonEmpty) println(describe(Point(1, 2))) else println("none")
  }
}
`,
  },
  elixir: {
    file: 'greeter.ex',
    code: `defmodule Greeter do
  @moduledoc "Greets people."
  def hello(name) when is_binary(name) do
    IO.puts("Hello " <> name)
    Enum.map([1, 2, 3], fn x -> x * 2 end)
  end

  def hello(_), do: {:error, :not_a_name}

  defp shout(text) do
    text |> String.upcase() |> IO.puts()
  end

  def run(list) do
    case list do
      [] -> :empty
      [head | _] -> shout(head)
    end
  end
end
`,
  },
  haskell: {
    file: 'Main.hs',
    code: `module Main where

import Data.List (sortBy)

data Shape = Circle Double | Rect Double Double

area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h

add :: Int -> Int -> Int
add x y = x + y

main :: IO ()
main = do
  putStrLn "shapes"
  print (map area [Circle 1, Rect 2 3])
  let total = foldr add 0 [1, 2, 3]
  print total
`,
  },
  hcl: {
    file: 'main.tf',
    code: `terraform {
  required_version = ">= 1.0"
}

variable "instance_type" {
  type    = string
  default = "t2.micro"
}

resource "aws_instance" "web" {
  ami           = "ami-123456"
  instance_type = var.instance_type
  count         = length(var.names)
  tags = {
    Name = "web-\${count.index}"
  }
}

output "ip" {
  value = aws_instance.web[0].public_ip
}
`,
  },
  nix: {
    file: 'shell.nix',
    code: `{ pkgs ? import <nixpkgs> { }, lib ? pkgs.lib }:

let
  version = "1.2.3";
  tools = with pkgs; [ git curl jq ];
in
pkgs.mkShell {
  name = "dev-\${version}";
  buildInputs = tools ++ [ pkgs.nodejs ];
  shellHook = ''
    echo "ready"
  '';
  meta = { description = "dev shell"; license = lib.licenses.mit; };
}
`,
  },
};

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

describe('languages ast-grep 0.51 ships, checked against its CLI on small programs', () => {
  for (const [language, sample] of Object.entries(SAMPLES)) {
    it(`${language}: parses cleanly; generated patterns and rules find what ast-grep finds`, { timeout: 120_000 }, async () => {
      const spec = findLanguage(language);
      if (!spec) throw new Error(`no language ${language}`);
      expect(languageOfFile(sample.file)?.id).toBe(language);
      expect(await loader.syntaxErrorLines(spec, sample.code)).toEqual([]);
      await using dir = tempDir({ [sample.file]: sample.code });
      const texts = [{ name: sample.file, text: sample.code }];
      const patterns = await generatePatterns(loader.runtime, spec, texts, 15, 20_251);
      const rules = await generateRules(loader.runtime, spec, texts, 10, 20_251);
      const cliPatterns = await oracleLocations(dir.path, language, patterns.map((p) => p.pattern));
      const cliRules = await oracleRuleLocations(dir.path, language, rules.map((r) => ({ rule: r.rule, ...(r.constraints ? { constraints: r.constraints } : {}) })));
      const unexplained: unknown[] = [];
      let compared = 0;
      let found = 0;
      const check = async (label: string, params: Parameters<typeof comparePattern>[3], cli: readonly string[]): Promise<void> => {
        const outcome = await comparePattern(loader, dir.path, language, params, cli);
        if (outcome.unparseable && cli.length === 0) return;
        if (outcome.mirrorDiff) {
          const why = await grammarDiffers(loader, dir.path, language, typeof params.params?.rule === 'object' ? '' : params.pattern, [...outcome.mirrorDiff.onlyCli, ...outcome.mirrorDiff.onlyMirror]);
          if (why) return;
          unexplained.push({ label, ...outcome.mirrorDiff });
          return;
        }
        compared++;
        found += cli.length;
        for (const d of [...outcome.extra, ...outcome.missing]) if (d.reasons.length === 0) unexplained.push({ label, location: d.location });
      };
      for (const [i, g] of patterns.entries()) {
        const cli = cliPatterns.found.get(i);
        if (cli) await check(g.pattern, { pattern: g.pattern, origin: g.origin }, cli);
      }
      for (const [i, r] of rules.entries()) {
        const cli = cliRules.found.get(i);
        const label = JSON.stringify(r.rule);
        if (cli) await check(label, { pattern: label, origin: r.origin, params: { rule: r.rule, ...(r.constraints ? { constraints: r.constraints } : {}) } }, cli);
      }
      expect(unexplained).toEqual([]);
      expect(compared).toBeGreaterThanOrEqual(8);
      expect(found).toBeGreaterThan(0);
    });
  }
});
