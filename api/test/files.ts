/** Small real files for attachment tests: each starts with its format's own signature. */

/** A 1×1 PNG. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082', 'hex');

/** A minimal PDF. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The start of a Windows executable (MZ header pointing at a PE signature): what a disguised .exe looks like. */
export function windowsExecutable(size = 4096): Buffer {
  const exe = Buffer.alloc(size);
  exe.write('MZ', 0, 'latin1');
  exe.writeUInt32LE(0x80, 0x3c);
  exe.write('PE\0\0', 0x80, 'latin1');
  exe.writeUInt16LE(0x14c, 0x84);
  return exe;
}

/** A multipart/form-data body with one file part and text fields, built with the platform's FormData. */
export function form(file: { name: string; type: string; bytes: Buffer } | null, fields: Record<string, string> = {}, extraFiles: { field: string; name: string; bytes: Buffer }[] = []): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const extra of extraFiles) data.append(extra.field, new Blob([new Uint8Array(extra.bytes)]), extra.name);
  return data;
}

/** A form as fetch would send it: its bytes and its Content-Type (with the boundary), for `t.request(…, { raw })`. */
export async function encodeForm(data: FormData): Promise<{ raw: Buffer; contentType: string }> {
  const encoded = new Request('http://encode.invalid/', { method: 'POST', body: data });
  return { raw: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
