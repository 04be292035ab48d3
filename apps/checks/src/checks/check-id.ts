import { randomFillSync } from 'node:crypto';

/**
 * `CHK` + 32 hex digits, like the public API's ids, but time-ordered (48-bit milliseconds, then 80
 * random bits): new rows land on the right edge of the primary-key index instead of random pages,
 * which keeps index writes (and WAL) small under load.
 */
export const newCheckId = (now = Date.now()) => `CHK${now.toString(16).padStart(12, '0').slice(-12)}${randomHex(10)}`;

// Random bytes drawn from a pool refilled 4 KiB at a time: one getrandom call per ~400 ids, not one per id.
const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;
function randomHex(bytes: number): string {
  if (entropyUsed + bytes > entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  entropyUsed += bytes;
  return entropy.toString('hex', entropyUsed - bytes, entropyUsed);
}
