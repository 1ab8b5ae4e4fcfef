/**
 * The learner's address book as a choice: one radio per saved address (the default first chosen)
 * and "填写新地址" to type one instead. Used where goods are sent without the buy dialog (the
 * exchange mall); the list comes from GET /api/orders/addresses.
 */
import type { Address } from "../../../shared/contracts/orders";
import "./saved-addresses.css";

export type AddressChoice = number | "new";

/** The default address, else the newest, else typing a new one. */
export function firstChoice(addresses: Address[]): AddressChoice {
  return (addresses.find((a) => a.isDefault) ?? addresses[0])?.id ?? "new";
}

export const addressLine = (a: Pick<Address, "recipient" | "phone" | "region" | "detail">) =>
  `${a.recipient}，${a.phone}，${a.region} ${a.detail}`;

export function SavedAddresses({
  addresses,
  chosen,
  onChoose,
  name = "saved-address",
}: {
  addresses: Address[];
  chosen: AddressChoice;
  onChoose: (choice: AddressChoice) => void;
  name?: string;
}) {
  return (
    <fieldset className="saved-addresses">
      <legend>收货地址</legend>
      {addresses.map((a) => (
        <label key={a.id} className={`saved-addresses__option${chosen === a.id ? " is-selected" : ""}`}>
          <input type="radio" name={name} checked={chosen === a.id} onChange={() => onChoose(a.id)} />
          <span>
            {a.recipient} {a.phone}
            {a.isDefault ? <span className="saved-addresses__default">默认</span> : null}
            <br />
            {a.region} {a.detail}
          </span>
        </label>
      ))}
      <label className={`saved-addresses__option${chosen === "new" ? " is-selected" : ""}`}>
        <input type="radio" name={name} checked={chosen === "new"} onChange={() => onChoose("new")} />
        <span>填写新地址</span>
      </label>
    </fieldset>
  );
}
