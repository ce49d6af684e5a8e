import { spawnSync } from 'node:child_process';
import { describe } from 'vitest';

/**
 * A program from Debian's packages that some tests run for real (no npm package ships it): those
 * tests are skipped where it is missing, with one line at the start of the run saying how to
 * install it, and fail instead when its REQUIRE_… variable is 1 (.ci/run sets them).
 */
export class SystemTool {
  readonly installed: boolean;

  constructor(
    /** The command run to tell whether it is installed, e.g. `redis-server`. */
    readonly command: string,
    readonly debianPackage: string,
    /** The environment variable that turns "skipped" into a failure, e.g. `REQUIRE_REDIS`. */
    readonly requireVariable: string,
    /** What is skipped without it, e.g. `Redis tests`. */
    readonly tests: string,
  ) {
    this.installed = spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
  }

  get required(): boolean {
    return process.env[this.requireVariable] === '1';
  }

  /** The line the run starts with when the tool is missing. */
  get installHint(): string {
    return `${this.command} not found: ${this.tests} skipped (install it with \`apt-get install ${this.debianPackage}\`; ${this.requireVariable}=1 makes this fail)`;
  }

  /** `describe` for tests that need the tool: skipped without it, a failure when it is required. */
  describe(name: string, body: () => void): void {
    describeWithTools([this], name, body);
  }
}

/** `describe` for tests that need every one of `tools`: skipped without one, a failure when a missing one is required. */
export function describeWithTools(tools: readonly SystemTool[], name: string, body: () => void): void {
  const missingRequired = tools.find((tool) => !tool.installed && tool.required);
  if (missingRequired) {
    describe(name, () => {
      throw new Error(
        `${missingRequired.requireVariable}=1 but ${missingRequired.command} is not installed: \`apt-get install ${missingRequired.debianPackage}\` (what .ci/run does)`,
      );
    });
    return;
  }
  (tools.every((tool) => tool.installed) ? describe : describe.skip)(name, body);
}
