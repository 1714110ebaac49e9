// API key format: finca_<mode>_<32 random base62><6 base62 CRC-32 checksum>. The checksum lets a
// secret scanner (or our own auth) tell a real key from noise without a database lookup.
import { hash, randomInt } from "node:crypto";
import { MODES, oneOf, type Mode } from "@/lib/domain";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^finca_(live|test)_([0-9A-Za-z]{38})$/;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** The checksum covers the prefix too, so a test key's body pasted as live fails the check. */
function checksum(prefix: string, random: string): string {
  return base62(crc32(prefix + random), CHECKSUM_LENGTH);
}

export function generateApiKey(mode: Mode): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  const prefix = `finca_${mode}_`;
  return prefix + random + checksum(prefix, random);
}

export type ParsedKey = { mode: Mode; key: string };

/** Shape and checksum only; whether the key exists is the database's business. */
export function parseApiKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const mode = oneOf(MODES, match[1]);
  if (!mode) return null;
  const body = match[2]!;
  const random = body.slice(0, RANDOM_LENGTH);
  if (body.slice(RANDOM_LENGTH) !== checksum(`finca_${mode}_`, random)) return null;
  return { mode, key };
}

export function hashApiKey(key: string): string {
  // One-shot: a Hash object for a single update cost each request more than the digest.
  return hash("sha256", key, "hex");
}

/** What lists show: enough to recognise a key, far too little to use it. */
export function visibleStart(key: string): string {
  return key.slice(0, "finca_live_".length + 6);
}
