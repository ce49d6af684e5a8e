import { describe, expect, it } from 'vitest';
import { readInvocation } from '../../src/cli/invocation.js';

/**
 * `npm run cli`'s reading of argv, in process: test/entry-points.process.test.ts spawns the CLI for one
 * usage and one refusal, which proves the entry point prints these where they belong.
 */
describe('npm run cli: usage and mistakes', () => {
  it.each([
    [['nope'], 'Unknown command "nope"'],
    [['status', '--bogus', 'x'], 'Unknown option --bogus'],
    [['status', 'extra'], 'takes no subcommand'],
    [[], 'No command given'],
  ])('refuses %j in one line pointing at --help, exit 2', (args, message) => {
    const result = readInvocation(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    const { stderr } = result as { stderr: string };
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Run "npm run cli -- --help" for usage.');
  });

  it.each([[['--help']], [['-h']], [['card', '--help']], [['card', 'show', '-h']], [['ip', 'lookup', '--addresses', '1.1.1.1', '--help']]])(
    'prints usage for %j and exits 0',
    (args) => {
      const result = readInvocation(args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const { stdout } = result as { stdout: string };
      expect(stdout).toContain('Usage: npm run cli -- <command>');
      expect(stdout).toContain(`  ${args[0] === 'ip' ? 'ip lookup --addresses' : 'card show --name <name>'}`);
    },
  );

  it('reads a command, its subcommand, typed options and the terminal’s own flags', () => {
    const result = readInvocation(['wallpaper', 'search', '--toplist', '1M', '--color=red', '--json', '--out', 'x.png']);
    expect(result).toMatchObject({ subcommand: 'search', json: true, out: 'x.png', attached: undefined });
    expect(Object.fromEntries((result as { values: Map<string, unknown> }).values)).toEqual({ toplist: '1M', color: 'red' });
  });
});
