/**
 * The home page's banner carousel. Without script it is simply the first slide; in the browser
 * it gains previous/next, one button per slide and a pause button, and moves on every few
 * seconds unless the pointer or the focus is on it, the visitor paused it, or they asked the
 * system for reduced motion. The frame has a fixed height, so changing slides moves nothing.
 */
import { type FocusEvent, useEffect, useState } from "react";
import { Link } from "../../routing/link";
import type { Banner } from "../../../shared/contracts/home";

export const BANNER_INTERVAL_MS = 5000;

export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const [index, setIndex] = useState(0);
  const [enhanced, setEnhanced] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  const count = banners.length;

  useEffect(() => {
    setEnhanced(true);
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) setPaused(true);
  }, []);

  const moving = enhanced && count > 1 && !paused && !hovered && !focused;
  useEffect(() => {
    if (!moving) return;
    const timer = setTimeout(() => setIndex((i) => (i + 1) % count), BANNER_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [moving, index, count]);

  if (count === 0) return null;
  const go = (next: number) => setIndex(((next % count) + count) % count);
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    <section
      className="banner-carousel"
      aria-roledescription="carousel"
      aria-label="推荐"
      data-moving={moving ? "true" : "false"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      <div className="banner-carousel__viewport" aria-live={moving ? "off" : "polite"}>
        {banners.map((banner, i) => (
          <div
            key={banner.id}
            className={`banner-slide banner-slide--${banner.tone}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`第 ${i + 1} 张，共 ${count} 张`}
            hidden={i !== index}
          >
            <div className="banner-slide__text">
              <p className="banner-slide__title">{banner.title}</p>
              <p className="banner-slide__subtitle">{banner.subtitle}</p>
              <Link className="button button--primary banner-slide__action" to={banner.link}>
                去看看
              </Link>
            </div>
            <span className="banner-slide__glyph" aria-hidden="true">
              {banner.glyph}
            </span>
          </div>
        ))}
      </div>
      {enhanced && count > 1 ? (
        <div className="banner-carousel__controls">
          <button type="button" className="banner-carousel__arrow" aria-label="上一张" onClick={() => go(index - 1)}>
            ‹
          </button>
          <div className="banner-carousel__dots">
            {banners.map((banner, i) => (
              <button
                key={banner.id}
                type="button"
                className={`banner-carousel__dot${i === index ? " is-active" : ""}`}
                aria-label={`第 ${i + 1} 张：${banner.title}`}
                aria-current={i === index ? "true" : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button type="button" className="banner-carousel__arrow" aria-label="下一张" onClick={() => go(index + 1)}>
            ›
          </button>
          <button type="button" className="banner-carousel__pause" onClick={() => setPaused((p) => !p)}>
            {paused ? "播放" : "暂停"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
