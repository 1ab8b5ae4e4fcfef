/** 手机号 and 邮箱: bind or change the address with a code sent to it. */
import { useEffect, useState } from "react";
import { type z } from "zod";
import { CodeField, FormAlert, SubmitButton, TextField, useCodeSender } from "../../../components/form/fields";
import { browserApi } from "../../../lib/api";
import { Done } from "./parts";
import { useMutation } from "../../../lib/mutation";

/** The checks load with the form's first opening, not with the page (decision 050). */
const meContract = () => import("../../../../shared/contracts/me");

type AddressSchema = z.ZodType<string, string>;
/** What binding sends: the address under its field's name, and the code. */
type BindSchema = z.ZodType<Record<string, string>>;

const bindKinds = {
  phone: {
    label: "手机号",
    field: "phone",
    send: "/api/me/phone/send",
    confirm: "/api/me/phone",
    addressSchema: (): Promise<AddressSchema> => meContract().then((m) => m.phoneBindSendSchema.shape.phone),
    bindSchema: (): Promise<BindSchema> => meContract().then((m) => m.phoneBindSchema),
    input: { type: "tel", inputMode: "tel", autoComplete: "tel", placeholder: "新的手机号", maxLength: 20 },
  },
  email: {
    label: "邮箱",
    field: "email",
    send: "/api/me/email/send",
    confirm: "/api/me/email",
    addressSchema: (): Promise<AddressSchema> => meContract().then((m) => m.emailBindSendSchema.shape.email),
    bindSchema: (): Promise<BindSchema> => meContract().then((m) => m.emailBindSchema),
    input: { type: "email", inputMode: "email", autoComplete: "email", placeholder: "邮箱地址", maxLength: 254 },
  },
} as const;

export function BindForm({
  kind,
  bound,
  onDone,
}: {
  kind: keyof typeof bindKinds;
  bound: boolean;
  onDone: () => void;
}) {
  const spec = bindKinds[kind];
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState("");
  const [code, setCode] = useState("");
  // Said as it was at the time: after the reload the address counts as bound either way.
  const [done, setDone] = useState<string | null>(null);
  const form = useMutation();
  // The address as the server will read it keys the code's countdown, once its check has loaded.
  const [addressSchema, setAddressSchema] = useState<AddressSchema | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    spec.addressSchema().then(
      (schema) => live && setAddressSchema(schema),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [open, spec]);
  const normalized = addressSchema?.safeParse(address);
  const sender = useCodeSender(`${kind}:${normalized?.success ? normalized.data : address}`);

  if (!open) {
    return (
      <>
        {done ? (
          <Done>
            {spec.label}已{bound ? "更换" : "绑定"}。
          </Done>
        ) : null}
        <button type="button" className="button button--small" onClick={() => setOpen(true)}>
          {bound ? `更换${spec.label}` : `绑定${spec.label}`}
        </button>
      </>
    );
  }

  const sendCode = async () => {
    form.setProblem(null);
    const target = await form.check(spec.field, spec.addressSchema(), address);
    if (target === null) return;
    const problem = await sender.send(() =>
      browserApi(spec.send, {
        method: "POST",
        body: { [spec.field]: target },
        schema: import("../../../../shared/contracts/auth").then((m) => m.codeSentSchema),
      }),
    );
    form.setProblem(problem);
  };

  return (
    <form
      ref={form.formRef}
      className="account-inline-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(spec.bindSchema(), { [spec.field]: address, code }, (input) =>
          browserApi(spec.confirm, {
            method: "POST",
            body: input,
            schema: import("../../../../shared/contracts/me").then((m) => m.meSchema),
          }),
        );
        if (result) {
          setOpen(false);
          setDone(`${spec.label}已${bound ? "更换" : "绑定"}。`);
          setAddress("");
          setCode("");
          onDone();
        }
      }}
    >
      <TextField
        label={bound ? `新的${spec.label}` : spec.label}
        name={spec.field}
        value={address}
        onValue={setAddress}
        error={form.errors[spec.field]}
        {...spec.input}
      />
      <CodeField
        value={code}
        onValue={setCode}
        error={form.errors.code}
        sender={sender}
        onSend={() => void sendCode()}
        sentHint={`验证码已发送到这个${spec.label}，5 分钟内有效`}
      />
      <FormAlert problem={form.problem} />
      <div className="form__actions">
        <SubmitButton busy={form.busy} busyText="确认中…">
          确认{bound ? "更换" : "绑定"}
        </SubmitButton>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          取消
        </button>
      </div>
    </form>
  );
}
