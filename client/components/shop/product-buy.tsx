/**
 * Buying one product (a book, a commodity): the quantity stepper, the stock state, the buy button
 * and its "ordering opens soon" notice, and the sections under the product.
 */
import { type ReactNode, useId, useState } from "react";
import { ORDER_PAY_MINUTES } from "../../../shared/contracts/orders";
import { LOW_STOCK, MAX_QUANTITY } from "../../../shared/contracts/shop";
import "./shop.css";

function clampQuantity(value: number, max: number): number {
  const top = Math.max(1, Math.min(max, MAX_QUANTITY));
  if (!Number.isFinite(value)) return 1;
  return Math.min(top, Math.max(1, Math.round(value)));
}

/** − [n] +, never below 1 nor above what is in stock (nor 99). */
export function QuantityStepper({
  value,
  max,
  unit,
  disabled,
  onChange,
}: {
  value: number;
  max: number;
  unit: string;
  disabled?: boolean;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const top = Math.max(1, Math.min(max, MAX_QUANTITY));
  // What the learner is typing, kept apart so an empty field can be typed over.
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string) => {
    setDraft(null);
    onChange(clampQuantity(Number(text), max));
  };
  return (
    <div className="quantity">
      <label className="quantity__label" htmlFor={`${id}-input`}>
        数量
      </label>
      <div className="quantity__control">
        <button
          type="button"
          className="quantity__step"
          aria-label="减少一件"
          disabled={disabled || value <= 1}
          onClick={() => onChange(clampQuantity(value - 1, max))}
        >
          −
        </button>
        <input
          id={`${id}-input`}
          className="quantity__input"
          type="number"
          inputMode="numeric"
          min={1}
          max={top}
          value={draft ?? String(value)}
          disabled={disabled}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(e.currentTarget.value);
          }}
        />
        <button
          type="button"
          className="quantity__step"
          aria-label="增加一件"
          disabled={disabled || value >= top}
          onClick={() => onChange(clampQuantity(value + 1, max))}
        >
          +
        </button>
      </div>
      {disabled ? null : (
        <span className="quantity__hint">
          最多可买 {top} {unit}
        </span>
      )}
    </div>
  );
}

function stockClass(stock: number): string {
  if (stock <= 0) return "stock-state stock-state--out";
  return stock <= LOW_STOCK ? "stock-state stock-state--low" : "stock-state";
}

/** How much is left, coloured: plenty, little, none. */
export function StockState({ stock, label }: { stock: number; label: string }) {
  return (
    <span className={stockClass(stock)} data-testid="stock-state">
      {label}
    </span>
  );
}

/** The buy button and the note under it (the note says why it is off, or what buying does now). */
export function BuyActions({
  soldOut,
  soldOutLabel,
  soldOutNote,
  problem,
  off = null,
  onBuy,
  onIntent,
}: {
  soldOut: boolean;
  soldOutLabel: string;
  soldOutNote: string;
  /** Why the last buy did not go through (useBuy's problem), shown under the button. */
  problem: string | null;
  /** Why buying is off on this site (no payment provider): the button is disabled and says so. */
  off?: string | null;
  onBuy: () => void;
  /** A likely click (hover, focus): starts loading what the click opens. */
  onIntent?: () => void;
}) {
  return (
    <>
      <div className="buy-box__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={soldOut || !!off}
          onClick={onBuy}
          onPointerEnter={onIntent}
          onFocus={onIntent}
        >
          {soldOut ? soldOutLabel : "立即购买"}
        </button>
      </div>
      <p className="buy-box__note" data-testid={off && !soldOut ? "buying-off" : undefined}>
        {soldOut ? soldOutNote : (off ?? `下单后请在 ${ORDER_PAY_MINUTES} 分钟内完成支付，库存为您保留。`)}
      </p>
      {problem ? (
        <p className="buy-box__note" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/** A titled section under a product (its description, its related items). */
export function ProductSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="product-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
