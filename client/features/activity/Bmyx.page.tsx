/** 笔墨研习: themed study series around one calligrapher or one model work. Shows the current activity of this kind, or says there is none yet. */
import { KindPage, kindLoader } from "./kind-page";

export const loader = kindLoader("bmyx");
export default KindPage;
