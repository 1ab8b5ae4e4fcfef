/** Order numbers in paths: `M` + 20 digits (issue time + sequence); anything else names no order. */
import { textParam } from "../../endpoint";

const ORDER_NO = /^M\d{20}$/;

export const orderNoParam = { orderNo: textParam(ORDER_NO, "订单号（M + 20 位数字）", "订单不存在") };
