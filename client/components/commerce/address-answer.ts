/** The API's answer to saving an address; loaded when a learner saves one (decision 030). */
import { z } from "zod";
import { addressSchema } from "../../../shared/contracts/orders";

export const addressAnswerSchema = z.object({ address: addressSchema });
