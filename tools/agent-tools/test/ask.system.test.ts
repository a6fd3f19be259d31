import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const CARD = {
  context: 'Setting up the inventory service.',
  questions: [
    {
      header: 'Database',
      question: 'Which database should the service use?',
      options: [{ label: 'Postgres', description: "the team's default" }, { label: 'SQLite' }],
      recommended: 'Postgres',
    },
    { header: 'Auth', question: 'How do users sign in?', options: [{ label: 'SSO' }, { label: 'Password' }], multi_select: true },
    { question: 'What should the service be called?' },
  ],
};

describe('ask_user cards of several questions in the harness', () => {
  it('renders one card at the terminal and reads an answer per question from piped lines (--interactive)', async () => {
    using dir = tempDir({ 'a.txt': 'a\n' });
    const input = [`ask_user ${JSON.stringify(CARD)}`, '7', '2', '1, 2', 'stockroom'].join('\n');
    const { code, stdout, stderr } = await cli(['repl', '--interactive', '--json', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const [answer] = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(answer.isError).toBe(false);
    expect(answer.content[0].text).toBe(
      [
        'The user answered all 3 questions on the card:',
        '1. [Database] Which database should the service use? → chose "SQLite".',
        '2. [Auth] How do users sign in? → chose 2 options: "SSO", "Password".',
        '3. What should the service be called? → wrote: "stockroom".',
      ].join('\n'),
    );
    expect(stderr).toContain('── 3 questions');
    expect(stderr).toContain("  1) Postgres (recommended)   the team's default");
    expect(stderr).toContain('1/3 answer> ');
    expect(stderr).toContain('There is no option 7; pick from 1 to 2.');
    expect(stderr).not.toContain('Assumed without asking');
  });

  it('lists what was assumed without asking when the run ends', async () => {
    using dir = tempDir({ 'a.txt': 'a\n' });
    const input = [`ask_user ${JSON.stringify(CARD)}`, 's', '1', '/skip'].join('\n');
    const { code, stdout, stderr } = await cli(['repl', '--interactive', '--json', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const [answer] = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(answer.content[0].text).toContain('For the skipped questions 1 and 3: Proceed on clearly stated assumptions');
    expect(answer.structured.assumptions).toHaveLength(2);
    expect(stderr).toContain(
      [
        'Assumed without asking (2):',
        '- [Database] Which database should the service use? (skipped): assumed "Postgres" (recommended)',
        '- What should the service be called? (skipped): the model chose',
      ].join('\n'),
    );
  });

  it('fails closed without a terminal, and still lists the questions as assumed', async () => {
    using dir = tempDir({ 'a.txt': 'a\n' });
    const { code, stdout, stderr } = await cli(['call', 'ask_user', JSON.stringify(CARD), '--cwd', dir.path]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^The questions could not reach a human \(the harness runs without a terminal, so no human is attached\)/);
    expect(stderr).toContain('Assumed without asking (3):');
  });
});
