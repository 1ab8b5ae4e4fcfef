/** 游记: travel notes on steles, museums and inscriptions. Shows the current activity of this kind, or says there is none yet. */
import { KindPage, kindLoader } from "./kind-page";

export const loader = kindLoader("travel_note");
export default KindPage;
