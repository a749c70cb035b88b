import { describe, expect, it } from 'vitest';
import { readMultipartFile } from './multipart.ts';

/** A body as a browser encodes it (undici's FormData, the same encoder the tests' uploads use). */
async function posted(form: FormData): Promise<Request> {
  const encoded = new Response(form);
  return new Request('https://shop.example/api/admin/import', {
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: await encoded.arrayBuffer(),
  });
}

describe('readMultipartFile', () => {
  it("finds the file among the form's fields, byte for byte, its name as given", async () => {
    // Line breaks, a dash run like a boundary's and bytes that are not UTF-8 must come through untouched.
    const content = new Uint8Array([...new TextEncoder().encode('a,b\r\n--\r\n"x\r\n"\r\n'), 0xff, 0x00, 0x0d, 0x0a]);
    const form = new FormData();
    form.set('form', 'upload');
    form.set('file', new File([content], 'Sales (2).csv', { type: 'text/csv' }));
    form.set('after', 'tail');
    const read = await readMultipartFile(await posted(form), 'file', 1024);
    expect('file' in read && read.file?.fileName).toBe('Sales (2).csv');
    expect('file' in read && [...read.file!.bytes]).toEqual([...content]);
  });

  it('answers no file for an empty file part or a missing field, 413 past the limit, 400 for a broken body', async () => {
    const empty = new FormData();
    empty.set('file', new File([], '', { type: 'application/octet-stream' }));
    expect(await readMultipartFile(await posted(empty), 'file', 1024)).toEqual({ file: undefined });
    const other = new FormData();
    other.set('image', new File(['x'], 'x.png'));
    expect(await readMultipartFile(await posted(other), 'file', 1024)).toEqual({ file: undefined });

    const large = new FormData();
    large.set('file', new File(['x'.repeat(2048)], 'big.csv'));
    const refused = await readMultipartFile(await posted(large), 'file', 1024);
    expect('response' in refused && refused.response.status).toBe(413);

    const request = await posted(large);
    const cut = new Request(request.url, {
      method: 'POST',
      headers: request.headers,
      body: (await request.text()).slice(0, 300),
    });
    const broken = await readMultipartFile(cut, 'file', 4096);
    expect('response' in broken && broken.response.status).toBe(400);
    const notMultipart = new Request(request.url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b' });
    const refusedType = await readMultipartFile(notMultipart, 'file', 4096);
    expect('response' in refusedType && refusedType.response.status).toBe(415);
  });
});
