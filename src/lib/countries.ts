/**
 * The phone country/region picker's list (spec §2.1, §3): about 230 entries of ITU-T E.164
 * calling codes with Chinese and English names. The picker shows `${code} ${name}`, and
 * "the area code is the first word of the chosen entry" (spec §2.1).
 *
 * Order (spec §3): mainland China, Hong Kong, Macau, Taiwan, Vietnam, Thailand and Indonesia
 * first, for the events' own visitors; then the rest by English name. Territories that share a
 * code (+1 NANP members keep their own four-digit code, e.g. +1242 Bahamas; +7, +44, +61, +262,
 * +590, +599) are separate entries, so each can be found by its own name.
 */
import type { Lang } from './languages';

/** One picker entry. */
export interface Country {
  /** `+` and the ITU calling code, e.g. `+86`. */
  readonly code: string;
  /** Chinese (simplified) name. */
  readonly zh: string;
  /** English name. */
  readonly en: string;
}

/** A picker entry with the text the picker shows in the page language. */
export interface CountryOption extends Country {
  /** `${code} ${name}`: its first word is the area code. */
  readonly text: string;
}

type Row = readonly [code: string, zh: string, en: string];

/** Shown first (spec §3). */
const FIRST: readonly Row[] = [
  ['+86', '中国大陆', 'Mainland China'],
  ['+852', '中国香港', 'Hong Kong'],
  ['+853', '中国澳门', 'Macau'],
  ['+886', '中国台湾', 'Taiwan'],
  ['+84', '越南', 'Vietnam'],
  ['+66', '泰国', 'Thailand'],
  ['+62', '印度尼西亚', 'Indonesia'],
];

/** Every other country or region, in English alphabetical order. */
const REST: readonly Row[] = [
  ['+93', '阿富汗', 'Afghanistan'],
  ['+355', '阿尔巴尼亚', 'Albania'],
  ['+213', '阿尔及利亚', 'Algeria'],
  ['+1684', '美属萨摩亚', 'American Samoa'],
  ['+376', '安道尔', 'Andorra'],
  ['+244', '安哥拉', 'Angola'],
  ['+1264', '安圭拉', 'Anguilla'],
  ['+1268', '安提瓜和巴布达', 'Antigua and Barbuda'],
  ['+54', '阿根廷', 'Argentina'],
  ['+374', '亚美尼亚', 'Armenia'],
  ['+297', '阿鲁巴', 'Aruba'],
  ['+247', '阿森松岛', 'Ascension Island'],
  ['+61', '澳大利亚', 'Australia'],
  ['+43', '奥地利', 'Austria'],
  ['+994', '阿塞拜疆', 'Azerbaijan'],
  ['+1242', '巴哈马', 'Bahamas'],
  ['+973', '巴林', 'Bahrain'],
  ['+880', '孟加拉国', 'Bangladesh'],
  ['+1246', '巴巴多斯', 'Barbados'],
  ['+375', '白俄罗斯', 'Belarus'],
  ['+32', '比利时', 'Belgium'],
  ['+501', '伯利兹', 'Belize'],
  ['+229', '贝宁', 'Benin'],
  ['+1441', '百慕大', 'Bermuda'],
  ['+975', '不丹', 'Bhutan'],
  ['+591', '玻利维亚', 'Bolivia'],
  ['+599', '荷兰加勒比区', 'Bonaire, Sint Eustatius and Saba'],
  ['+387', '波斯尼亚和黑塞哥维那', 'Bosnia and Herzegovina'],
  ['+267', '博茨瓦纳', 'Botswana'],
  ['+55', '巴西', 'Brazil'],
  ['+246', '英属印度洋领地', 'British Indian Ocean Territory'],
  ['+1284', '英属维尔京群岛', 'British Virgin Islands'],
  ['+673', '文莱', 'Brunei'],
  ['+359', '保加利亚', 'Bulgaria'],
  ['+226', '布基纳法索', 'Burkina Faso'],
  ['+257', '布隆迪', 'Burundi'],
  ['+855', '柬埔寨', 'Cambodia'],
  ['+237', '喀麦隆', 'Cameroon'],
  ['+1', '加拿大', 'Canada'],
  ['+238', '佛得角', 'Cape Verde'],
  ['+1345', '开曼群岛', 'Cayman Islands'],
  ['+236', '中非共和国', 'Central African Republic'],
  ['+235', '乍得', 'Chad'],
  ['+56', '智利', 'Chile'],
  ['+61', '圣诞岛', 'Christmas Island'],
  ['+61', '科科斯（基林）群岛', 'Cocos (Keeling) Islands'],
  ['+57', '哥伦比亚', 'Colombia'],
  ['+269', '科摩罗', 'Comoros'],
  ['+242', '刚果（布）', 'Congo'],
  ['+243', '刚果（金）', 'Congo (Democratic Republic)'],
  ['+682', '库克群岛', 'Cook Islands'],
  ['+506', '哥斯达黎加', 'Costa Rica'],
  ['+225', '科特迪瓦', "Côte d'Ivoire"],
  ['+385', '克罗地亚', 'Croatia'],
  ['+53', '古巴', 'Cuba'],
  ['+599', '库拉索', 'Curaçao'],
  ['+357', '塞浦路斯', 'Cyprus'],
  ['+420', '捷克', 'Czechia'],
  ['+45', '丹麦', 'Denmark'],
  ['+253', '吉布提', 'Djibouti'],
  ['+1767', '多米尼克', 'Dominica'],
  ['+1809', '多米尼加共和国', 'Dominican Republic'],
  ['+593', '厄瓜多尔', 'Ecuador'],
  ['+20', '埃及', 'Egypt'],
  ['+503', '萨尔瓦多', 'El Salvador'],
  ['+240', '赤道几内亚', 'Equatorial Guinea'],
  ['+291', '厄立特里亚', 'Eritrea'],
  ['+372', '爱沙尼亚', 'Estonia'],
  ['+268', '斯威士兰', 'Eswatini'],
  ['+251', '埃塞俄比亚', 'Ethiopia'],
  ['+500', '福克兰群岛', 'Falkland Islands'],
  ['+298', '法罗群岛', 'Faroe Islands'],
  ['+679', '斐济', 'Fiji'],
  ['+358', '芬兰', 'Finland'],
  ['+33', '法国', 'France'],
  ['+594', '法属圭亚那', 'French Guiana'],
  ['+689', '法属波利尼西亚', 'French Polynesia'],
  ['+241', '加蓬', 'Gabon'],
  ['+220', '冈比亚', 'Gambia'],
  ['+995', '格鲁吉亚', 'Georgia'],
  ['+49', '德国', 'Germany'],
  ['+233', '加纳', 'Ghana'],
  ['+350', '直布罗陀', 'Gibraltar'],
  ['+30', '希腊', 'Greece'],
  ['+299', '格陵兰', 'Greenland'],
  ['+1473', '格林纳达', 'Grenada'],
  ['+590', '瓜德罗普', 'Guadeloupe'],
  ['+1671', '关岛', 'Guam'],
  ['+502', '危地马拉', 'Guatemala'],
  ['+44', '根西岛', 'Guernsey'],
  ['+224', '几内亚', 'Guinea'],
  ['+245', '几内亚比绍', 'Guinea-Bissau'],
  ['+592', '圭亚那', 'Guyana'],
  ['+509', '海地', 'Haiti'],
  ['+504', '洪都拉斯', 'Honduras'],
  ['+36', '匈牙利', 'Hungary'],
  ['+354', '冰岛', 'Iceland'],
  ['+91', '印度', 'India'],
  ['+98', '伊朗', 'Iran'],
  ['+964', '伊拉克', 'Iraq'],
  ['+353', '爱尔兰', 'Ireland'],
  ['+44', '马恩岛', 'Isle of Man'],
  ['+972', '以色列', 'Israel'],
  ['+39', '意大利', 'Italy'],
  ['+1876', '牙买加', 'Jamaica'],
  ['+81', '日本', 'Japan'],
  ['+44', '泽西岛', 'Jersey'],
  ['+962', '约旦', 'Jordan'],
  ['+7', '哈萨克斯坦', 'Kazakhstan'],
  ['+254', '肯尼亚', 'Kenya'],
  ['+686', '基里巴斯', 'Kiribati'],
  ['+383', '科索沃', 'Kosovo'],
  ['+965', '科威特', 'Kuwait'],
  ['+996', '吉尔吉斯斯坦', 'Kyrgyzstan'],
  ['+856', '老挝', 'Laos'],
  ['+371', '拉脱维亚', 'Latvia'],
  ['+961', '黎巴嫩', 'Lebanon'],
  ['+266', '莱索托', 'Lesotho'],
  ['+231', '利比里亚', 'Liberia'],
  ['+218', '利比亚', 'Libya'],
  ['+423', '列支敦士登', 'Liechtenstein'],
  ['+370', '立陶宛', 'Lithuania'],
  ['+352', '卢森堡', 'Luxembourg'],
  ['+261', '马达加斯加', 'Madagascar'],
  ['+265', '马拉维', 'Malawi'],
  ['+60', '马来西亚', 'Malaysia'],
  ['+960', '马尔代夫', 'Maldives'],
  ['+223', '马里', 'Mali'],
  ['+356', '马耳他', 'Malta'],
  ['+692', '马绍尔群岛', 'Marshall Islands'],
  ['+596', '马提尼克', 'Martinique'],
  ['+222', '毛里塔尼亚', 'Mauritania'],
  ['+230', '毛里求斯', 'Mauritius'],
  ['+262', '马约特', 'Mayotte'],
  ['+52', '墨西哥', 'Mexico'],
  ['+691', '密克罗尼西亚', 'Micronesia'],
  ['+373', '摩尔多瓦', 'Moldova'],
  ['+377', '摩纳哥', 'Monaco'],
  ['+976', '蒙古', 'Mongolia'],
  ['+382', '黑山', 'Montenegro'],
  ['+1664', '蒙特塞拉特', 'Montserrat'],
  ['+212', '摩洛哥', 'Morocco'],
  ['+258', '莫桑比克', 'Mozambique'],
  ['+95', '缅甸', 'Myanmar'],
  ['+264', '纳米比亚', 'Namibia'],
  ['+674', '瑙鲁', 'Nauru'],
  ['+977', '尼泊尔', 'Nepal'],
  ['+31', '荷兰', 'Netherlands'],
  ['+687', '新喀里多尼亚', 'New Caledonia'],
  ['+64', '新西兰', 'New Zealand'],
  ['+505', '尼加拉瓜', 'Nicaragua'],
  ['+227', '尼日尔', 'Niger'],
  ['+234', '尼日利亚', 'Nigeria'],
  ['+683', '纽埃', 'Niue'],
  ['+672', '诺福克岛', 'Norfolk Island'],
  ['+850', '朝鲜', 'North Korea'],
  ['+389', '北马其顿', 'North Macedonia'],
  ['+1670', '北马里亚纳群岛', 'Northern Mariana Islands'],
  ['+47', '挪威', 'Norway'],
  ['+968', '阿曼', 'Oman'],
  ['+92', '巴基斯坦', 'Pakistan'],
  ['+680', '帕劳', 'Palau'],
  ['+970', '巴勒斯坦', 'Palestine'],
  ['+507', '巴拿马', 'Panama'],
  ['+675', '巴布亚新几内亚', 'Papua New Guinea'],
  ['+595', '巴拉圭', 'Paraguay'],
  ['+51', '秘鲁', 'Peru'],
  ['+63', '菲律宾', 'Philippines'],
  ['+48', '波兰', 'Poland'],
  ['+351', '葡萄牙', 'Portugal'],
  ['+1787', '波多黎各', 'Puerto Rico'],
  ['+974', '卡塔尔', 'Qatar'],
  ['+262', '留尼汪', 'Réunion'],
  ['+40', '罗马尼亚', 'Romania'],
  ['+7', '俄罗斯', 'Russia'],
  ['+250', '卢旺达', 'Rwanda'],
  ['+590', '圣巴泰勒米', 'Saint Barthélemy'],
  ['+290', '圣赫勒拿', 'Saint Helena'],
  ['+1869', '圣基茨和尼维斯', 'Saint Kitts and Nevis'],
  ['+1758', '圣卢西亚', 'Saint Lucia'],
  ['+590', '法属圣马丁', 'Saint Martin'],
  ['+508', '圣皮埃尔和密克隆', 'Saint Pierre and Miquelon'],
  ['+1784', '圣文森特和格林纳丁斯', 'Saint Vincent and the Grenadines'],
  ['+685', '萨摩亚', 'Samoa'],
  ['+378', '圣马力诺', 'San Marino'],
  ['+239', '圣多美和普林西比', 'São Tomé and Príncipe'],
  ['+966', '沙特阿拉伯', 'Saudi Arabia'],
  ['+221', '塞内加尔', 'Senegal'],
  ['+381', '塞尔维亚', 'Serbia'],
  ['+248', '塞舌尔', 'Seychelles'],
  ['+232', '塞拉利昂', 'Sierra Leone'],
  ['+65', '新加坡', 'Singapore'],
  ['+1721', '荷属圣马丁', 'Sint Maarten'],
  ['+421', '斯洛伐克', 'Slovakia'],
  ['+386', '斯洛文尼亚', 'Slovenia'],
  ['+677', '所罗门群岛', 'Solomon Islands'],
  ['+252', '索马里', 'Somalia'],
  ['+27', '南非', 'South Africa'],
  ['+82', '韩国', 'South Korea'],
  ['+211', '南苏丹', 'South Sudan'],
  ['+34', '西班牙', 'Spain'],
  ['+94', '斯里兰卡', 'Sri Lanka'],
  ['+249', '苏丹', 'Sudan'],
  ['+597', '苏里南', 'Suriname'],
  ['+46', '瑞典', 'Sweden'],
  ['+41', '瑞士', 'Switzerland'],
  ['+963', '叙利亚', 'Syria'],
  ['+992', '塔吉克斯坦', 'Tajikistan'],
  ['+255', '坦桑尼亚', 'Tanzania'],
  ['+670', '东帝汶', 'Timor-Leste'],
  ['+228', '多哥', 'Togo'],
  ['+690', '托克劳', 'Tokelau'],
  ['+676', '汤加', 'Tonga'],
  ['+1868', '特立尼达和多巴哥', 'Trinidad and Tobago'],
  ['+216', '突尼斯', 'Tunisia'],
  ['+90', '土耳其', 'Turkey'],
  ['+993', '土库曼斯坦', 'Turkmenistan'],
  ['+1649', '特克斯和凯科斯群岛', 'Turks and Caicos Islands'],
  ['+688', '图瓦卢', 'Tuvalu'],
  ['+256', '乌干达', 'Uganda'],
  ['+380', '乌克兰', 'Ukraine'],
  ['+971', '阿联酋', 'United Arab Emirates'],
  ['+44', '英国', 'United Kingdom'],
  ['+1', '美国', 'United States'],
  ['+1340', '美属维尔京群岛', 'United States Virgin Islands'],
  ['+598', '乌拉圭', 'Uruguay'],
  ['+998', '乌兹别克斯坦', 'Uzbekistan'],
  ['+678', '瓦努阿图', 'Vanuatu'],
  ['+39', '梵蒂冈', 'Vatican City'],
  ['+58', '委内瑞拉', 'Venezuela'],
  ['+681', '瓦利斯和富图纳', 'Wallis and Futuna'],
  ['+212', '西撒哈拉', 'Western Sahara'],
  ['+967', '也门', 'Yemen'],
  ['+260', '赞比亚', 'Zambia'],
  ['+263', '津巴布韦', 'Zimbabwe'],
];

/** The whole list, in picker order. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  [...FIRST, ...REST].map(([code, zh, en]) => Object.freeze({ code, zh, en })),
);

/** Chinese names for zh and tw (the list has no traditional forms), English for every other language. */
export function countryName(country: Country, lang: Lang): string {
  return lang === 'zh' || lang === 'tw' ? country.zh : country.en;
}

/**
 * The text of a picker entry.
 * @example countryEntryText(COUNTRIES[0], 'en') // '+86 Mainland China'
 */
export function countryEntryText(country: Country, lang: Lang): string {
  return `${country.code} ${countryName(country, lang)}`;
}

const AREA_CODE = /^\+\d{1,4}$/;

/**
 * The area code of a chosen entry: its first word (spec §2.1), or null when that is not a
 * calling code (`+` and 1-4 digits).
 * @example areaCodeOf('+66 Thailand') // '+66'
 * @example areaCodeOf('Thailand') // null
 */
export function areaCodeOf(entryText: string | null | undefined): string | null {
  const first = (entryText ?? '').trim().split(/\s+/)[0] ?? '';
  return AREA_CODE.test(first) ? first : null;
}

/** Case- and accent-insensitive form for matching ('Côte' matches 'cote'). */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The entries matching what the visitor typed into the picker's search box (spec §2.1):
 * digits (with or without `+`) match the start of the calling code; any other text matches
 * anywhere in the Chinese or the English name, ignoring case and accents. An empty query
 * matches everything. Picker order is kept.
 * @example searchCountries('85', 'en').map((c) => c.text) // ['+852 Hong Kong', '+853 Macau', '+855 Cambodia', '+856 Laos', '+850 North Korea']
 * @example searchCountries('泰', 'zh')[0]?.text // '+66 泰国'
 */
export function searchCountries(query: string, lang: Lang): CountryOption[] {
  const q = fold(query.trim());
  const digits = /^\+?\d+$/.test(q) ? q.replace(/^\+/, '') : null;
  const matches = (c: Country): boolean =>
    q === '' ||
    (digits !== null ? c.code.slice(1).startsWith(digits) : fold(c.zh).includes(q) || fold(c.en).includes(q));
  return COUNTRIES.filter(matches).map((c) => ({ ...c, text: countryEntryText(c, lang) }));
}
