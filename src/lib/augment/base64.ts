/** Float32Arrays as base64 of their little-endian bytes: exact, and a third the size of decimal JSON. */
const CHUNK = 0x8000;

export function floatsToBase64(values: Float32Array): string {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let binary = '';
  // In chunks: String.fromCharCode takes its bytes as arguments.
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export function base64ToFloats(text: string, where: string): Float32Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new Error(`${where}: not base64`);
  }
  if (binary.length % 4 !== 0) throw new Error(`${where}: ${binary.length} bytes is not a whole number of floats`);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}
