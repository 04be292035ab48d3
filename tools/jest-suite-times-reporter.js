// Prints, at the end of an integration run, how long each suite took (slowest first) and the
// total, so a change to the suites or the harness can be measured suite by suite.
const path = require('node:path');

class SuiteTimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({
        file: path.relative(this.rootDir, r.testFilePath),
        seconds: (r.perfStats.end - r.perfStats.start) / 1000,
        failed: r.numFailingTests > 0 || Boolean(r.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (suites.length < 2) return;
    const total = suites.reduce((sum, s) => sum + s.seconds, 0);
    const lines = suites.map((s) => `${s.seconds.toFixed(1).padStart(7)} s  ${s.file}${s.failed ? '  (failed)' : ''}`);
    process.stdout.write(`\nSuite times (${suites.length} suites, ${total.toFixed(1)} s):\n${lines.join('\n')}\n`);
  }
}

module.exports = SuiteTimesReporter;
