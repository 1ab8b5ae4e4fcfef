/**
 * The operator's catalogue and the teacher's own courses, by resource: the shared field rules and
 * list query, courses with their chapters and lessons, books and stationery.
 */
export * from "./admin-catalogue-fields";
export * from "./admin-courses";
export * from "./admin-goods";
