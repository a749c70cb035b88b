import { useEffect, useState } from 'react';
import { COVER_ACCEPT, MAX_COVER_BYTES } from '../../../lib/admin/courses.schema.ts';
import { LOCALE_OF, type Language } from '../../../i18n/languages.ts';

/** The files the course editor is given: their sizes in words, and a chosen cover's preview. */
export const COVER_TYPES = COVER_ACCEPT.split(',');

export function formatBytes(bytes: number, lang: Language): string {
  const megabytes = bytes / (1024 * 1024);
  const unit = megabytes >= 1 ? 'megabyte' : 'kilobyte';
  const value = megabytes >= 1 ? megabytes : bytes / 1024;
  return new Intl.NumberFormat(LOCALE_OF[lang], { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/** A chosen image as a data: URL (the page's CSP allows data: images, not blob: ones). */
export function useDataUrl(file: File | null): string | null {
  const [read, setRead] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file || !COVER_TYPES.includes(file.type) || file.size > MAX_COVER_BYTES) return;
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setRead({ file, url: reader.result });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return read && read.file === file ? read.url : null;
}
