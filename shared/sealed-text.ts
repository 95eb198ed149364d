import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back (OAuth signing keys, webhook signing secrets) are
 * kept encrypted at rest with AES-256-GCM under a key derived from CRM_SECRET: a copy of
 * the database alone does not reveal them. Format: iv.tag.ciphertext (base64url).
 */
export function sealText(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function openSealedText(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed sealed text');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
