// Appends each jest run's totals to $KYC_TEST_SUMMARY_FILE (one JSON line per run), so
// tools/test-all.mjs can print one closing line for unit and integration suites together.
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.KYC_TEST_SUMMARY_FILE;
    if (!file) return;
    const line = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      suites: results.numTotalTestSuites,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

module.exports = SummaryReporter;
