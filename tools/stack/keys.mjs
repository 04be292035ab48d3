// The stack's keys and secrets, generated once under <stack dir>/keys and reused by every start.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { dist } from './util.mjs';

export async function signingKeys(dir) {
  const pub = path.join(dir, 'api-key-signing.pub.pem');
  const priv = path.join(dir, 'api-key-signing.pem');
  if (!existsSync(priv)) {
    const { generateSigningKeys } = dist('libs/platform/src/auth/api-key.tokens.js');
    const keys = generateSigningKeys();
    await mkdir(dir, { recursive: true });
    await writeFile(priv, keys.privateKey, { mode: 0o600 });
    await writeFile(pub, keys.publicKey);
  }
  return { privateKey: await readFile(priv, 'utf8'), publicKey: await readFile(pub, 'utf8') };
}

/** The account service's key for secrets at rest (ACCOUNT_SECRETS_KEY), generated once per stack dir. */
export async function accountSecretsKey(dir) {
  const file = path.join(dir, 'account-secrets.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** Pass's key for client secrets and signing keys at rest (PASS_SECRETS_KEY), generated once per stack dir. */
export async function passSecretsKey(dir) {
  const file = path.join(dir, 'pass-secrets.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The checks service's key for collector credentials at rest (CHECKS_CREDENTIALS_KEY, 32 bytes base64), generated once per stack dir. */
export async function checksCredentialsKey(dir) {
  const file = path.join(dir, 'checks-credentials.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The checks service's key that signs batch upload links (CHECKS_UPLOAD_SIGNING_KEY), generated once per stack dir. */
export async function checksUploadSigningKey(dir) {
  const file = path.join(dir, 'checks-upload-signing.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

export async function validationsSecretKey(dir) {
  const file = path.join(dir, 'validations-secret.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The engagement service's key for provider credentials at rest (ENGAGEMENT_CREDENTIALS_KEY), generated once per stack dir. */
export async function engagementCredentialsKey(dir) {
  const file = path.join(dir, 'engagement-credentials.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}
