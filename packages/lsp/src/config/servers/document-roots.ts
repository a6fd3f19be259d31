/**
 * Root markers of servers for single documents (JSON, CSS, YAML, shell scripts): a file of one of these languages
 * belongs to the project that holds it, marked by its version control or its package manifest.
 */
export const PROJECT_MARKERS = ['.git', '.hg', 'package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml'];
