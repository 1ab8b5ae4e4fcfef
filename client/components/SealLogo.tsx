/** The seal-style logo: 墨池 carved in a vermilion square, drawn as SVG (no image request). */
export function SealLogo({ size = 40 }: { size?: number }) {
  return (
    <svg className="seal-logo" width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect x="1.5" y="1.5" width="37" height="37" rx="4" fill="#b22c1a" />
      <rect x="4.5" y="4.5" width="31" height="31" rx="2" fill="none" stroke="#f7f3ea" strokeWidth="1.2" />
      <text
        x="20"
        y="19"
        textAnchor="middle"
        fontSize="13"
        fill="#f7f3ea"
        fontFamily="'Noto Serif CJK SC','Source Han Serif SC','Songti SC',serif"
        fontWeight="700"
      >
        墨池
      </text>
      <text
        x="20"
        y="33"
        textAnchor="middle"
        fontSize="10"
        fill="#f7f3ea"
        fontFamily="'Noto Serif CJK SC','Source Han Serif SC','Songti SC',serif"
      >
        课堂
      </text>
    </svg>
  );
}
