// Test environment that keeps test output quiet: what the code under test logs (console, Nest's logger,
// TypeORM's query errors) is held per test and printed only when that test, or a hook of its file, fails.
const { format } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'];

class QuietEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.held = [];
    this.fileLines = [];
  }

  async setup() {
    await super.setup();
    const testConsole = this.global.console;
    this.print = ([heading, ...lines]) => {
      if (lines.length > 0) testConsole.log([heading, ...lines].join('\n'));
    };
    const held =
      (method) =>
      (...args) =>
        this.held.push(`[${method}] ${format(...args)}`);
    const quiet = Object.create(testConsole);
    for (const method of METHODS) quiet[method] = held(method);
    this.global.console = quiet;
    // Nest's logger writes to process.stdout / process.stderr directly: the test context's process gets
    // streams whose writes are held too (the runner's own streams are untouched).
    for (const name of ['stdout', 'stderr']) {
      const real = process[name];
      const stream = Object.create(real);
      stream.write = (chunk, encoding, callback) => {
        this.held.push(
          `[${name}] ${String(chunk)
            .replace(/\x1b\[[0-9;]*m/g, '')
            .trimEnd()}`,
        );
        const done = typeof encoding === 'function' ? encoding : callback;
        if (typeof done === 'function') done();
        return true;
      };
      Object.defineProperty(this.global.process, name, {
        value: stream,
        configurable: true,
        enumerable: true,
        writable: true,
      });
    }
  }

  handleTestEvent(event) {
    if (event.name === 'test_start') {
      this.fileLines.push(...this.held);
      this.held = [];
    } else if (event.name === 'test_done') {
      if (event.test.errors.length > 0)
        this.print([`--- output of "${event.test.name}" and its file's hooks ---`, ...this.fileLines, ...this.held]);
      this.held = [];
    } else if (event.name === 'hook_failure') {
      this.print([`--- output before the failing ${event.hook.type} hook ---`, ...this.fileLines, ...this.held]);
      this.held = [];
    }
  }
}

module.exports = QuietEnvironment;
