import GalleySupport
import GalleyTemplate
/// The built-in emoticon pack: common Weibo codes as Unicode emoji.
///
/// Weibo draws its codes as small pictures; here each stands for the emoji closest in meaning,
/// so a post reads the same without the pictures. Sequences stay whole: a heart with its
/// emoji-style selector, a ZWJ face, a flag (two regional indicators).
enum EmoticonBuiltin {
    struct Entry {
        var code: String
        var emoji: String
    }

    static let table: [Entry] = [
        // Faces.
        Entry(code: "[微笑]", emoji: "🙂"),
        Entry(code: "[嘻嘻]", emoji: "😁"),
        Entry(code: "[哈哈]", emoji: "😄"),
        Entry(code: "[太开心]", emoji: "😆"),
        Entry(code: "[笑cry]", emoji: "😂"),
        Entry(code: "[允悲]", emoji: "🥲"),
        Entry(code: "[偷笑]", emoji: "🤭"),
        Entry(code: "[爱你]", emoji: "😍"),
        Entry(code: "[亲亲]", emoji: "😘"),
        Entry(code: "[憧憬]", emoji: "🤩"),
        Entry(code: "[害羞]", emoji: "😊"),
        Entry(code: "[酷]", emoji: "😎"),
        Entry(code: "[馋嘴]", emoji: "🤤"),
        Entry(code: "[思考]", emoji: "🤔"),
        Entry(code: "[费解]", emoji: "😕"),
        Entry(code: "[并不简单]", emoji: "🧐"),
        Entry(code: "[泪]", emoji: "😢"),
        Entry(code: "[可怜]", emoji: "🥺"),
        Entry(code: "[衰]", emoji: "😩"),
        Entry(code: "[失望]", emoji: "😞"),
        Entry(code: "[怒]", emoji: "😠"),
        Entry(code: "[哼]", emoji: "😤"),
        Entry(code: "[鄙视]", emoji: "😒"),
        Entry(code: "[阴险]", emoji: "😏"),
        Entry(code: "[吃惊]", emoji: "😲"),
        Entry(code: "[汗]", emoji: "😓"),
        Entry(code: "[晕]", emoji: "😵\u{200D}💫"),  // face with spiral eyes: a ZWJ sequence
        Entry(code: "[困]", emoji: "😪"),
        Entry(code: "[睡]", emoji: "😴"),
        Entry(code: "[生病]", emoji: "🤒"),
        Entry(code: "[吐]", emoji: "🤮"),
        Entry(code: "[嘘]", emoji: "🤫"),
        Entry(code: "[闭嘴]", emoji: "🤐"),
        Entry(code: "[黑线]", emoji: "😑"),
        Entry(code: "[挖鼻]", emoji: "👃"),
        Entry(code: "[doge]", emoji: "🐶"),
        Entry(code: "[二哈]", emoji: "🐕"),
        Entry(code: "[喵喵]", emoji: "🐱"),
        Entry(code: "[猪头]", emoji: "🐷"),
        // Hands and gestures.
        Entry(code: "[赞]", emoji: "👍"),
        Entry(code: "[good]", emoji: "👍"),
        Entry(code: "[ok]", emoji: "👌"),
        Entry(code: "[耶]", emoji: "✌\u{FE0F}"),
        Entry(code: "[握手]", emoji: "🤝"),
        Entry(code: "[作揖]", emoji: "🙏"),
        Entry(code: "[鼓掌]", emoji: "👏"),
        Entry(code: "[抱抱]", emoji: "🤗"),
        Entry(code: "[拜拜]", emoji: "👋"),
        Entry(code: "[加油]", emoji: "💪"),
        Entry(code: "[摊手]", emoji: "🤷"),
        Entry(code: "[围观]", emoji: "👀"),
        Entry(code: "[中国赞]", emoji: "🇨🇳👍"),  // a flag (two regional indicators), then a thumb
        // Things.
        Entry(code: "[心]", emoji: "❤\u{FE0F}"),
        Entry(code: "[伤心]", emoji: "💔"),
        Entry(code: "[吃瓜]", emoji: "🍉"),
        Entry(code: "[蛋糕]", emoji: "🎂"),
        Entry(code: "[礼物]", emoji: "🎁"),
        Entry(code: "[鲜花]", emoji: "💐"),
        Entry(code: "[太阳]", emoji: "☀\u{FE0F}"),
        Entry(code: "[月亮]", emoji: "🌙"),
        Entry(code: "[彩虹]", emoji: "🌈"),
        Entry(code: "[干杯]", emoji: "🍻"),
        Entry(code: "[咖啡]", emoji: "☕"),
        Entry(code: "[给力]", emoji: "💯"),
        Entry(code: "[话筒]", emoji: "🎤"),
        Entry(code: "[音乐]", emoji: "🎵"),
    ]
}
