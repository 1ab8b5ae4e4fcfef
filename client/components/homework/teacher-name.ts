/** "林" → "林老师"; a name that already ends in 老师 (a nickname such as "林老师") stays as it is. */
export function teacherName(name: string): string {
  return name.endsWith("老师") ? name : `${name}老师`;
}
