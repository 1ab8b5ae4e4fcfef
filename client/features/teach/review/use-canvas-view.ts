/** Where the review canvas's photo sits: fitted to the viewport, zoomed by the toolbar and the wheel. */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
import {
  fitView,
  hitGrid,
  scaleGridBy,
  toPhoto,
  type View,
  wheelFactor,
  zoomAt,
} from "../../../components/homework/canvas-geometry";
import { commit, withGridChanged } from "../../../components/homework/editor-state";
import type { CanvasProps } from "./canvas-props";

export function useCanvasView(box: RefObject<HTMLDivElement | null>, props: CanvasProps) {
  const { photo } = props;
  const [view, setView] = useState<View | null>(null);
  // The latest values for the native wheel listener.
  const live = useRef({ view, props });
  live.current = { view, props };

  // Fit the photo when it changes and when the viewport is resized.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const fit = () => setView(fitView(el.clientWidth, el.clientHeight, photo.width, photo.height));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [photo.width, photo.height, photo.id]); // eslint-disable-line react-hooks/exhaustive-deps -- box is a ref

  useEffect(() => {
    if (view) props.onZoom(view.zoom);
  }, [view?.zoom]); // eslint-disable-line react-hooks/exhaustive-deps -- report zoom changes only

  // Toolbar zoom: around the viewport's centre; factor 1 fits again.
  useEffect(() => {
    const el = box.current;
    if (!el || props.zoomRequest.n === 0) return;
    setView((v) => {
      if (!v) return v;
      if (props.zoomRequest.factor === 1) return fitView(el.clientWidth, el.clientHeight, photo.width, photo.height);
      return zoomAt(v, props.zoomRequest.factor, el.clientWidth / 2, el.clientHeight / 2);
    });
  }, [props.zoomRequest, photo.width, photo.height]); // eslint-disable-line react-hooks/exhaustive-deps -- box is a ref

  // The wheel zooms (or scales the grid under the pointer with the grid tool); passive: false to keep the page still.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { view: v, props: p } = live.current;
      const ed = p.editor;
      if (!v) return;
      const rect = el.getBoundingClientRect();
      const sx = e.clientX - rect.left;
      const sy = e.clientY - rect.top;
      const factor = wheelFactor(e.deltaY, e.deltaMode);
      if (p.tool === "grid") {
        const grids = ed.drawings[p.photoIndex]?.grids ?? [];
        const hit = hitGrid(grids, toPhoto(v, sx, sy), p.photo.height / p.photo.width, 0);
        if (hit) {
          p.onSelectGrid(hit.index);
          p.onEditor(
            commit(
              ed,
              withGridChanged(ed.drawings, p.photoIndex, hit.index, (g) => scaleGridBy(g, factor)),
            ),
          );
          return;
        }
      }
      setView(zoomAt(v, factor, sx, sy));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- box is a ref

  return [view, setView] as const;
}
