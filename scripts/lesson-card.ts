/**
 * A lesson's title card (640x360, the size of the sample videos): the model character large in a
 * red 米字格 on the site's paper, the lesson's topic beside it and the course and lesson number
 * above, all in the Ma Shan Zheng brush hand drawn as outlines (api/brush-font.ts),
 * so the picture does not depend on the fonts of the machine that makes it.
 */
import { centredGlyphPath, textPath } from "../api/brush-font";
import type { DemoLessonClip } from "../api/db/demo-lesson-clips";

export const CARD_WIDTH = 640;
export const CARD_HEIGHT = 360;
/** The site's paper, ink and seal colours (client/styles/tokens.css). */
const PAPER = "#f7f3ea";
const INK = "#222222";
const INK_SOFT = "#3d3832";
const SEAL = "#b22c1a";

/** A line of brush text fitted into `width` px: at most `size` px high, smaller when it is long. */
function fittedLine(text: string, x: number, baseline: number, size: number, width: number) {
  const measured = textPath(text, 0, 0, size).width;
  const fitted = measured > width ? (size * width) / measured : size;
  return { d: textPath(text, x, baseline, fitted).d, size: fitted };
}

export function lessonCardSvg(clip: DemoLessonClip): string {
  // The 米字格: 220 px square, 44 px from the left, centred vertically.
  const cell = 220;
  const gx = 44;
  const gy = (CARD_HEIGHT - cell) / 2;
  const character = centredGlyphPath(clip.character, gx + cell / 2, gy + cell / 2, cell * 0.8);
  const textLeft = gx + cell + 40;
  const textWidth = CARD_WIDTH - textLeft - 36;
  const course = fittedLine(clip.courseTitle, textLeft, 120, 24, textWidth);
  const number = textPath(`第 ${clip.lessonNumber} 课`, textLeft, 170, 30).d;
  const title = fittedLine(clip.cardTitle, textLeft, 238, 46, textWidth);
  const example = textPath(`例字  ${clip.character}`, textLeft, 290, 26).d;
  const seal = { x: CARD_WIDTH - 36 - 44, y: CARD_HEIGHT - 36 - 44, size: 44 };
  const sealText = textPath("墨池", 0, 0, 18);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
  <rect width="100%" height="100%" fill="${PAPER}"/>
  <rect x="14" y="14" width="${CARD_WIDTH - 28}" height="${CARD_HEIGHT - 28}" fill="none" stroke="${INK}" stroke-opacity="0.14" stroke-width="1.5"/>
  <g stroke="${SEAL}" fill="none">
    <rect x="${gx}" y="${gy}" width="${cell}" height="${cell}" stroke-width="3"/>
    <g stroke-width="1.2" stroke-dasharray="7 6" stroke-opacity="0.55">
      <line x1="${gx + cell / 2}" y1="${gy}" x2="${gx + cell / 2}" y2="${gy + cell}"/>
      <line x1="${gx}" y1="${gy + cell / 2}" x2="${gx + cell}" y2="${gy + cell / 2}"/>
      <line x1="${gx}" y1="${gy}" x2="${gx + cell}" y2="${gy + cell}"/>
      <line x1="${gx + cell}" y1="${gy}" x2="${gx}" y2="${gy + cell}"/>
    </g>
  </g>
  <path d="${character}" fill="${INK}"/>
  <path d="${course.d}" fill="${INK_SOFT}"/>
  <path d="${number}" fill="${SEAL}"/>
  <path d="${title.d}" fill="${INK}"/>
  <line x1="${textLeft}" y1="258" x2="${textLeft + textWidth}" y2="258" stroke="${INK}" stroke-opacity="0.2"/>
  <path d="${example}" fill="${INK_SOFT}"/>
  <rect x="${seal.x}" y="${seal.y}" width="${seal.size}" height="${seal.size}" rx="4" fill="${SEAL}"/>
  <path d="${textPath("墨池", seal.x + (seal.size - sealText.width) / 2, seal.y + seal.size / 2 + 7, 18).d}" fill="${PAPER}"/>
</svg>`;
}
