/** 共读: reading one book together on a shared schedule. Shows the current activity of this kind, or says there is none yet. */
import { KindPage, kindLoader } from "./kind-page";

export const loader = kindLoader("reading");
export default KindPage;
