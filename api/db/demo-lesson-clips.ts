/**
 * Every demo lesson's own clip (shared/media.ts lessonCardKey): which course and lesson it is,
 * the title and model character its title card shows, and the sample that follows the card.
 * The seed gives each lesson its clip's key; scripts/make-lesson-cards.ts draws the cards from
 * the same list, and media/video/cards/manifest.json records what each card shows.
 */
import { lessonCardKey, type SampleVideoKey } from "../../shared/media";
import { courseOutline, courseSeeds } from "./catalogue-data";

export interface DemoLessonClip {
  /** The card's folder under media/video/cards: course and lesson number, e.g. "01-03". */
  slug: string;
  key: string;
  sample: SampleVideoKey;
  courseTitle: string;
  /** Lesson number within the course, from 1. */
  lessonNumber: number;
  /** The lesson's full title, as seeded. */
  lessonTitle: string;
  /** The topic the card shows in large type (the title without its example note). */
  cardTitle: string;
  /** The model character drawn in the card's 米字格. */
  character: string;
}

/**
 * The sample that shows what the lesson is about: structure lessons the 山 sample, stroke and
 * brush-work lessons the 横 sample, everything else (and every writing or 国学 lesson) 永字八法.
 */
function sampleForLesson(topic: string, category: string): SampleVideoKey {
  if (category === "xiezuo" || category === "guoxue") return "yong";
  if (/结构|字形|部首|偏旁|布局|章法|行气|对称|扁方|疏密|舒展|独体|合体|欹正/.test(topic)) return "shan";
  if (/笔|横|竖|撇|捺|点|钩|折|提|线条|使转|连绵|波磔|蚕头|中锋|侧锋|玉箸|圆转/.test(topic)) return "heng";
  return "yong";
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Every demo lesson in seed order (courses in order, lessons in outline order). */
export function demoLessonClips(): DemoLessonClip[] {
  return courseSeeds.flatMap((course, courseIndex) => {
    let lessonNumber = 0;
    return courseOutline(course, courseIndex).flatMap(([, titles]) =>
      titles.map((lessonTitle) => {
        lessonNumber++;
        const example = /（例字“(.)”）$/u.exec(lessonTitle);
        const cardTitle = lessonTitle.replace(/（例字“.”）$/u, "").replace(/：.*$/u, "");
        const sample = sampleForLesson(cardTitle, course.category);
        const slug = `${pad(courseIndex + 1)}-${pad(lessonNumber)}`;
        return {
          slug,
          key: lessonCardKey(sample, slug),
          sample,
          courseTitle: course.title,
          lessonNumber,
          lessonTitle,
          cardTitle,
          character: example?.[1] ?? course.cover,
        };
      }),
    );
  });
}
