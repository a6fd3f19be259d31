/** One file of a staged edit: its content when the edit was staged, and what it becomes. */
export interface StagedFile {
  /** Workspace-relative path. */
  readonly file: string;
  readonly absolute: string;
  readonly original: string;
  readonly updated: string;
  readonly replacements: number;
}

/** Where a staged edit stands. */
export type EditState = 'staged' | 'accepted' | 'discarded' | 'rejected' | 'expired';

/** An `ast_edit` proposal waiting for `resolve`. */
export interface StagedEdit {
  readonly id: string;
  readonly pattern: string;
  readonly rewrite: string;
  readonly files: readonly StagedFile[];
  readonly replacements: number;
  state: EditState;
  /** Why the edit ended as it did (files that changed, a write that failed). */
  note?: string;
}

/**
 * The edits staged in one run, by id (`edit_1`, `edit_2`, ...). Ids are never reused; an id that was resolved
 * keeps answering with what happened to it. At most `limit` edits are kept staged; older ones expire.
 */
export class EditStore {
  readonly #edits = new Map<string, StagedEdit>();
  readonly #limit: number;
  #next = 1;

  constructor(limit = 50) {
    this.#limit = limit;
  }

  stage(edit: Omit<StagedEdit, 'id' | 'state'>): StagedEdit {
    const staged: StagedEdit = { ...edit, id: `edit_${this.#next++}`, state: 'staged' };
    this.#edits.set(staged.id, staged);
    const waiting = [...this.#edits.values()].filter((e) => e.state === 'staged');
    for (const old of waiting.slice(0, Math.max(0, waiting.length - this.#limit))) {
      this.#expire(old);
    }
    return staged;
  }

  get(id: string): StagedEdit | undefined {
    return this.#edits.get(id.trim());
  }

  /** Ids of the edits still waiting for `resolve`. */
  pending(): string[] {
    return [...this.#edits.values()].filter((e) => e.state === 'staged').map((e) => e.id);
  }

  #expire(edit: StagedEdit): void {
    edit.state = 'expired';
    edit.note = `more than ${this.#limit} edits were staged after it`;
    // Keep the id's answer, drop the contents.
    this.#edits.set(edit.id, { ...edit, files: [] });
  }
}
