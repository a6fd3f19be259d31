import { cargoChecker } from '../../project-check/checkers/cargo-check.js';
import { defineServer } from '../server-config.js';

/** Rust through rust-analyzer; whole-project checks run `cargo check`. */
export const rustAnalyzerServer = defineServer({
  id: 'rust-analyzer',
  name: 'rust-analyzer',
  languages: 'Rust',
  extensions: { '.rs': 'rust' },
  rootMarkers: ['Cargo.toml'],
  binaries: ['rust-analyzer'],
  args: [],
  projectCheck: cargoChecker,
  // rust-analyzer indexes the crate graph before it answers.
  requestTimeoutMs: 60_000,
});
