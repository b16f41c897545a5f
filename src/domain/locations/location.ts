import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;

/** `center` is `geo:<latitude>,<longitude>`; `radius` a number and a unit, as the service writes them. */
const circleShape = z.strictObject({
  type: z.literal("circle"),
  format: z.literal("distance"),
  distance: z.strictObject({
    center: z.string().regex(new RegExp(`^geo:${NUMBER},${NUMBER}$`), "must be geo:<latitude>,<longitude>"),
    radius: z
      .string()
      .regex(/^\d+(?:\.\d+)?\s?(?:km|m|mi|ft)$/, "must be a number and a unit (km, m, mi, ft)"),
  }),
});

/** GeoJSON positions are [longitude, latitude] (optionally altitude); a linear ring closes on its start. */
const position = z.array(z.number()).min(2).max(3);
const ring = z
  .array(position)
  .min(4)
  .refine((points) => points[0]?.join() === points.at(-1)?.join(), "a linear ring must end where it starts");
const polygonCoordinates = z.array(ring).min(1);

const polygonShape = z.strictObject({
  type: z.literal("polygon"),
  format: z.literal("geojson"),
  geojson: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("Polygon"), coordinates: polygonCoordinates }),
    z.strictObject({ type: z.literal("MultiPolygon"), coordinates: z.array(polygonCoordinates).min(1) }),
  ]),
});

export const locationSchema = z.strictObject({
  id: idWithPrefix("loc"),
  object: z.literal("location").default("location"),
  name: z.string().min(1),
  shape: z.discriminatedUnion("type", [circleShape, polygonShape]),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
});

export type Location = z.output<typeof locationSchema>;

export class LocationStore extends RecordStore<Location> {}
