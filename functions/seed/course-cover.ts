import type { DemoCourse } from './demo-catalogue.ts';

const WIDTH = 800;
const HEIGHT = 450;

/** A gradient cover with the course title, as a self-contained SVG (no scripts, no external refs). */
export function renderCoverSvg(course: Pick<DemoCourse, 'title' | 'coverColors'>): string {
  const [from, to] = course.coverColors;
  const lines = wrap(course.title, 26).slice(0, 3);
  const firstY = HEIGHT / 2 - ((lines.length - 1) * 56) / 2;
  const text = lines.map((line, index) => `<text x="60" y="${firstY + index * 56}" class="t">${escapeXml(line)}</text>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<style>.t{font:700 44px system-ui,sans-serif;fill:#fff}</style>
<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>
<circle cx="${WIDTH - 90}" cy="90" r="140" fill="#ffffff18"/><circle cx="${WIDTH - 40}" cy="${HEIGHT - 20}" r="90" fill="#ffffff12"/>
${text}
</svg>`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
