/** The browser's API client (same origin, the session cookie goes along). */
import { createAjax } from "../../shared/ajax";

export const browserApi = createAjax();
