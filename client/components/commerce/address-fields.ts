/**
 * The four fields of a shipping address (buying goods, redeeming them in the exchange mall), each
 * with what a phone's keyboard and autofill should offer for it. A form adjusts what its own
 * contract limits differently.
 */
export const emptyAddress = { recipient: "", phone: "", region: "", detail: "" };

export type AddressField = {
  name: keyof typeof emptyAddress;
  label: string;
  placeholder: string;
  max: number;
  autoComplete: string;
  type?: "tel";
};

export const ADDRESS_FIELDS: readonly AddressField[] = [
  { name: "recipient", label: "收货人", placeholder: "姓名", max: 20, autoComplete: "shipping name" },
  { name: "phone", label: "手机号", placeholder: "11 位手机号", max: 20, autoComplete: "shipping tel", type: "tel" },
  {
    name: "region",
    label: "所在地区",
    placeholder: "如：浙江省 杭州市 西湖区",
    max: 60,
    autoComplete: "shipping address-level1",
  },
  {
    name: "detail",
    label: "详细地址",
    placeholder: "街道、门牌号（5–120 字）",
    max: 120,
    autoComplete: "shipping street-address",
  },
];
