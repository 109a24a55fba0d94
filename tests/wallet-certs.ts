/**
 * Test-only wallet secrets, made with openssl at test time (issue 13; nothing of it is
 * committed): a CA standing in for Apple's WWDR intermediate, a "pass type id" certificate
 * signed by it with its PKCS#8 key, and an RSA key standing in for a Google service account.
 * Used by tests/unit/apple-pass.test.ts and tests/e2e/wallet.spec.ts (Node only).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WalletTestCerts {
  /** the folder the files live in (ca.pem, pass-cert.pem, pass-key.pem, google-key.pem, google-pub.pem) */
  dir: string;
  caPem: string;
  passCertPem: string;
  passKeyPem: string;
  googleKeyPem: string;
  googlePublicPem: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** Makes a fresh set in a new temporary folder (about 0.3 s: three RSA 2048 keys). */
export function makeWalletTestCerts(): WalletTestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-certs-'));
  writeFileSync(join(dir, 'ext.cnf'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning,emailProtection\n');
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test WWDR (not Apple)/O=Expo Pass tests']);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'pass-key.pem', '-out', 'pass.csr', '-subj', '/UID=pass.test.expo/CN=Pass Type ID: pass.test.expo/OU=ABCDE12345/O=Expo Pass tests']);
  openssl(dir, ['x509', '-req', '-in', 'pass.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', 'pass-cert.pem', '-days', '2', '-extfile', 'ext.cnf']);
  openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'google-key.pem']);
  openssl(dir, ['pkey', '-in', 'google-key.pem', '-pubout', '-out', 'google-pub.pem']);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    dir,
    caPem: read('ca.pem'),
    passCertPem: read('pass-cert.pem'),
    passKeyPem: read('pass-key.pem'),
    googleKeyPem: read('google-key.pem'),
    googlePublicPem: read('google-pub.pem'),
  };
}

/**
 * `openssl smime -verify` of a detached PKCS#7 signature of `content` against the test CA
 * (`ca.pem` in `dir`): its exit status and what it printed ("Verification successful").
 */
export function opensslVerify(dir: string, signature: Uint8Array, content: Uint8Array): { ok: boolean; output: string } {
  writeFileSync(join(dir, 'signature'), signature);
  writeFileSync(join(dir, 'manifest.json'), content);
  const r = spawnSync('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', 'ca.pem', '-out', '/dev/null'], { cwd: dir, encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
}
