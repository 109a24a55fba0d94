/**
 * A whole `.pkpass`: pass.json and the images, manifest.json with their SHA-1
 * hashes, the detached signature of the manifest, zipped with fflate (pure JS, no Node APIs,
 * so it runs on workerd). The route (functions/apple-pass.ts) only gathers the inputs.
 */
import { zipSync, type Zippable } from 'fflate';
import { applePassJson, passManifest, type AppleWalletKeys, type PassLabels } from './apple-pass';
import type { WalletPass } from './google-wallet';
import { passImages } from './pass-images';
import { signManifest, type PassSigner } from './pass-signature';

/** The content type Safari hands to Wallet. */
export const PKPASS_CONTENT_TYPE = 'application/vnd.apple.pkpass';

/** The pass's files before signing: pass.json and the images. */
export async function passFiles(keys: Pick<AppleWalletKeys, 'passTypeId' | 'teamId'>, pass: WalletPass, labels: PassLabels): Promise<Record<string, Uint8Array>> {
  return { 'pass.json': new TextEncoder().encode(JSON.stringify(applePassJson(keys, pass, labels))), ...(await passImages()) };
}

/** The zipped, signed pass. */
export async function buildPkpass(input: {
  keys: Pick<AppleWalletKeys, 'passTypeId' | 'teamId'>;
  signer: PassSigner;
  pass: WalletPass;
  labels: PassLabels;
  now: Date;
}): Promise<Uint8Array> {
  const files = await passFiles(input.keys, input.pass, input.labels);
  const manifest = new TextEncoder().encode(JSON.stringify(await passManifest(files)));
  const signature = await signManifest(input.signer, manifest, input.now);
  const zippable: Zippable = { ...files, 'manifest.json': manifest, signature };
  return zipSync(zippable, { level: 6, mtime: input.now });
}
