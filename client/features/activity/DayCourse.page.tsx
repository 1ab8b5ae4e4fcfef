/** 每日一课: one short lesson a day. Shows the current activity of this kind, or says there is none yet. */
import { KindPage, kindLoader } from "./kind-page";

export const loader = kindLoader("daycourse");
export default KindPage;
